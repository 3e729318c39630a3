import { GatewayError } from '../core/errors.ts';

/**
 * The id of an object in a path (a model, a stored response, a video), decoded: SDKs escape what an id may
 * hold (a slug's slash as `%2F`). A malformed escape is a 400 that says which id it should have been.
 */
export function decodePathId(segment: string, what: { noun: string; code: string; param: string }): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new GatewayError('invalid_request', `"${segment}" is not a valid ${what.noun} id in a path.`, { code: what.code, param: what.param });
  }
}
