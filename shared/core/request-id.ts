import { GatewayError } from './errors.ts';
import type { RandomBytes } from './ports.ts';
import { randomBase62 } from './project-keys.ts';

const clientRequestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request's id: the client's `X-Request-ID` when it sent one (so it can look the generation up by
 * its own id), else a fresh `gen-…` id. A client id is checked, since it lands in logs and headers.
 */
export function chooseRequestId(clientRequestId: string | undefined, randomBytes: RandomBytes): string {
  if (clientRequestId === undefined || clientRequestId === '') return `gen-${randomBase62(24, randomBytes)}`;
  if (!clientRequestIdPattern.test(clientRequestId)) {
    throw new GatewayError(
      'invalid_request',
      'X-Request-ID must be 1-128 characters of letters, digits, ".", "_", ":" and "-".',
      { code: 'invalid_request_id' },
    );
  }
  return clientRequestId;
}
