/**
 * Shorter parts are not treated as secrets: redacting every "admin" or "token" would garble messages, and
 * a credential worth the name is longer.
 */
export const MIN_SECRET_LENGTH = 8;

/** `<scheme> <credentials>`, as in `Authorization` (`Bearer x`, `Basic x`, `token x`). */
const SCHEME_AND_CREDENTIALS = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)\s+(\S[\s\S]*)$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The text Basic credentials encode (`user:password`), or undefined when they are not base64 of UTF-8. */
function decodeBasic(encoded: string): string | undefined {
  if (!BASE64.test(encoded)) return undefined;
  try {
    const bytes = Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * What one header value holds that a client must never see: the value, the credentials after an auth
 * scheme (a server refusing `Bearer x` tends to say "invalid token x"), and for Basic the decoded
 * `user:password` and the password alone. Parts shorter than MIN_SECRET_LENGTH are left out.
 */
export function credentialParts(value: string): string[] {
  const whole = value.trim();
  const parts = [whole];
  const match = SCHEME_AND_CREDENTIALS.exec(whole);
  const scheme = match?.[1];
  const credentials = match?.[2]?.trim();
  if (scheme !== undefined && credentials !== undefined) {
    parts.push(credentials);
    const userPassword = scheme.toLowerCase() === 'basic' ? decodeBasic(credentials) : undefined;
    if (userPassword !== undefined) {
      parts.push(userPassword);
      // A user name holds no colon (RFC 7617): the password is everything after the first.
      const colon = userPassword.indexOf(':');
      if (colon >= 0) parts.push(userPassword.slice(colon + 1));
    }
  }
  return parts.filter((part) => part.length >= MIN_SECRET_LENGTH);
}

/** Every secret a set of headers (an MCP server's) holds, each once. */
export function headerSecrets(headers: Readonly<Record<string, string>>): string[] {
  return [...new Set(Object.values(headers).flatMap(credentialParts))];
}
