import { GatewayError } from '../core/errors.ts';

/** RFC 3986's unreserved characters: percent-encoding one changes nothing about what the path names. */
const ENCODED_UNRESERVED = /%(4[1-9A-F]|5[0-9A]|6[1-9A-F]|7[0-9A]|3[0-9]|2D|2E|5F|7E)/gi;

/** Every percent-encoded byte. */
const EVERY_ESCAPE = /%([0-9A-Fa-f]{2})/g;

/** The escapes `pattern` matches (its group the two hex digits) as the characters of their bytes. */
function decodeEscapes(path: string, pattern: RegExp): string {
  return path.replace(pattern, (_escape, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/**
 * The one form of a request path every route group chooses its route by and its handlers read: repeated
 * slashes read as one (as most web servers read them), a trailing slash dropped, and percent-encoded
 * unreserved characters decoded (RFC 3986 6.2.2.2: `%65` is `e`). Without it `/v1//messages` and
 * `/v1/%65mbeddings` miss their routes and land in pass-through, past the access policy and the meter of
 * the route they name. Reserved characters stay encoded (`%2F` is not a slash), and dot segments are left
 * for the routes to refuse.
 */
export function normaliseRequestPath(path: string): string {
  const decoded = decodeEscapes(path, ENCODED_UNRESERVED);
  const collapsed = decoded.replace(/\/{2,}/g, '/');
  return collapsed.length > 1 ? collapsed.replace(/\/$/, '') : collapsed;
}

/**
 * The path as a lenient server would read it: every escape decoded (`%2F` a slash), `;` parameters dropped
 * from each segment, in lower case. No route is chosen by it; it tells whether a path differs from a route the
 * gateway serves only in ways some upstream would not mind (`/v1/Chat/Completions`, `/v1/chat/completions;x`,
 * `/v1/chat%2Fcompletions`): passed through, such a path would reach the route's upstream API past its
 * access policy and meter.
 */
export function lenientRequestPath(path: string): string {
  // Escape by escape, as a byte each: a stray `%` elsewhere must not leave the others encoded (routes are ASCII).
  const decoded = decodeEscapes(path, EVERY_ESCAPE);
  const withoutParameters = decoded
    .split('/')
    .map((segment) => segment.replace(/;.*$/s, ''))
    .join('/');
  return normaliseRequestPath(withoutParameters.toLowerCase());
}

/** The refusal of a path that reads as a served route only leniently (lenientRequestPath). */
export function lookalikeOfRouteError(path: string): GatewayError {
  return new GatewayError('not_found', `The gateway does not serve ${path}: it differs from a route the gateway serves only in letter case, escapes or ";" parameters, and is never passed through. Send the route's own path.`, {
    code: 'not_found',
  });
}
