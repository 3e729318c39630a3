import ipaddr from 'ipaddr.js';

/**
 * Whether an IP address is on the public internet: ordinary unicast, and nothing of IANA's special-purpose
 * registries (loopback, private, link-local such as the instance metadata service, carrier-grade NAT,
 * benchmarking, multicast, reserved, unique-local, site-local, 6to4, Teredo, documentation, …). An IPv6
 * address that carries an IPv4 one (IPv4-mapped ::ffff:0:0/96, IPv4-compatible ::/96, NAT64's
 * 64:ff9b::/96) is judged by the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  const host = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(host)) return false;
  const parsed = ipaddr.parse(host);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  const carried = carriedIpv4(v6);
  return carried ? carried.range() === 'unicast' : v6.range() === 'unicast';
}

function carriedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const parts = address.parts;
  const lastTwo = [parts[6] ?? 0, parts[7] ?? 0];
  const ipv4 = () => new ipaddr.IPv4(lastTwo.flatMap((word) => [word >> 8, word & 255]));
  if (address.range() === 'ipv4Mapped' || address.range() === 'rfc6052') return ipv4();
  // IPv4-compatible (::a.b.c.d, deprecated): the first 96 bits are zero.
  if (parts.slice(0, 6).every((word) => word === 0)) return ipv4();
  return undefined;
}
