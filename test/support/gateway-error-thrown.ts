import { GatewayError } from '../../shared/core/errors.ts';

/** The GatewayError `fn` throws, for tests of refusals; any other throw (or none) fails the test. */
export function gatewayErrorThrownBy(fn: () => unknown): GatewayError {
  try {
    fn();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a GatewayError to be thrown');
}
