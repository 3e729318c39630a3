import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../shared/core/errors.ts';
import { MOCK_BASE_URL } from '../../shared/core/provider-catalog.ts';
import { isPrivateHost, validateProviderBaseUrl } from '../../shared/core/validate-base-url.ts';

function refusal(provider: string, baseUrl: string, allowPrivate: boolean): GatewayError {
  try {
    validateProviderBaseUrl(provider, baseUrl, allowPrivate);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error(`expected ${baseUrl} to be refused`);
}

describe('isPrivateHost', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    'api.localhost',
    'metadata.google.internal',
    '0.0.0.0',
    '10.1.2.3',
    '127.0.0.1',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '100.127.255.255',
    '[::1]',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'febf::1',
    '::ffff:7f00:1',
    // A trailing dot names the same host as a fully qualified domain name.
    'localhost.',
    'api.localhost.',
    'metadata.google.internal.',
    '127.0.0.1.',
    // IANA special-purpose ranges and IPv6 forms that carry a private IPv4 address.
    'fec0::1',
    '[::169.254.169.254]',
    '[64:ff9b::169.254.169.254]',
    '198.18.0.1',
    '224.0.0.1',
  ])('counts %s as private', (host) => {
    expect(isPrivateHost(host)).toBe(true);
  });

  it.each([
    'api.openai.com',
    '8.8.8.8',
    '172.15.0.1',
    '172.32.0.1',
    '169.253.1.1',
    '192.169.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '11.0.0.1',
    '2606:4700::1111',
    'localhost.example.com',
  ])('counts %s as public', (host) => {
    expect(isPrivateHost(host)).toBe(false);
  });
});

describe('validateProviderBaseUrl', () => {
  it('accepts a public https URL and drops trailing slashes', () => {
    expect(validateProviderBaseUrl('openai', 'https://api.openai.com/v1/', false)).toBe('https://api.openai.com/v1');
    expect(validateProviderBaseUrl('openai', 'https://api.openai.com//', false)).toBe('https://api.openai.com');
  });

  it('normalises the URL as the WHATWG parser does', () => {
    expect(validateProviderBaseUrl('groq', 'HTTPS://API.Groq.com/openai/v1', false)).toBe('https://api.groq.com/openai/v1');
  });

  it('accepts only the fixed URL for the offline mock provider', () => {
    expect(validateProviderBaseUrl('mock', MOCK_BASE_URL, false)).toBe('mock://offline/v1');
    const error = refusal('mock', 'https://api.openai.com/v1', true);
    expect(error.code).toBe('invalid_base_url');
    expect(error.message).toBe('The offline mock provider lives at mock://offline/v1.');
  });

  it('refuses what is not a URL with 400 invalid_base_url on param base_url', () => {
    const error = refusal('openai', 'api.openai.com/v1', false);
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_base_url');
    expect(error.param).toBe('base_url');
    expect(error.message).toBe('"api.openai.com/v1" is not a URL.');
  });

  it('refuses credentials in the URL even where private URLs are allowed', () => {
    expect(refusal('openai', 'https://user:pass@api.openai.com/v1', true).message).toBe(
      "A base URL must not carry credentials; give the key as the provider's API key.",
    );
  });

  it.each(['https://api.openai.com/v1?key=1', 'https://api.openai.com/v1#frag'])('refuses a query or fragment in %s', (url) => {
    expect(refusal('openai', url, true).message).toBe('A base URL must not carry a query or fragment.');
  });

  it('refuses plain http for a public deployment, saying where http is accepted', () => {
    expect(refusal('openai', 'http://api.openai.com/v1', false).message).toBe(
      'Provider base URLs must use https here; http:// is accepted only where the deployment allows private upstreams, as the local host does.',
    );
  });

  it('refuses schemes other than http and https even where private URLs are allowed, naming both', () => {
    expect(refusal('custom', 'ftp://files.example/v1', true).message).toBe('Provider base URLs must use https or http.');
    expect(refusal('custom', 'file:///etc/passwd', true).message).toBe('Provider base URLs must use https or http.');
  });

  it.each([
    ['https://127.0.0.1/v1', '127.0.0.1'],
    ['https://169.254.169.254/latest', '169.254.169.254'],
    ['https://[::1]:8443/v1', '[::1]'],
    ['https://localhost/v1', 'localhost'],
    ['https://localhost./v1', 'localhost.'],
    // The URL parser turns decimal and hex forms into dotted quads before the check.
    ['https://2130706433/v1', '127.0.0.1'],
    ['https://0x7f.1/v1', '127.0.0.1'],
    ['https://[::ffff:127.0.0.1]/v1', '[::ffff:7f00:1]'],
  ])('refuses the private address in %s', (url, hostname) => {
    const error = refusal('custom', url, false);
    expect(error.code).toBe('invalid_base_url');
    expect(error.message).toBe(`"${hostname}" is a loopback, private or link-local address; this deployment does not allow those.`);
  });

  it('allows http and private addresses when the deployment allows private URLs', () => {
    expect(validateProviderBaseUrl('local-fake', 'http://127.0.0.1:8787/v1/', true)).toBe('http://127.0.0.1:8787/v1');
  });
});
