import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../shared/core/public-address.ts';

describe('isPublicAddress', () => {
  it.each([
    '169.254.169.254', // link-local: the instance metadata service
    '10.1.2.3', '172.16.0.1', '192.168.1.1', '127.0.0.1', '0.0.0.0', '100.64.0.1', // private, loopback, unspecified, CGNAT
    '198.18.0.1', '192.0.0.1', '192.0.2.1', '240.0.0.1', '224.0.0.1', '255.255.255.255', // benchmarking, IETF, TEST-NET, reserved, multicast, broadcast
    '::1', '::', 'fd00::1', 'fe80::1', 'fec0::1', 'ff02::1', // loopback, unspecified, unique-local, link-local, site-local, multicast
    '::ffff:10.0.0.1', '::169.254.169.254', '64:ff9b::a9fe:a9fe', '[::ffff:127.0.0.1]', // IPv4-mapped, IPv4-compatible, NAT64
    '2002::1', '2001::1', '2001:db8::1', // 6to4, Teredo, documentation
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '::ffff:8.8.8.8', '64:ff9b::808:808'])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});
