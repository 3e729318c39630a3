import { ZERO_USAGE } from '../core/token-usage.ts';
import type { UsageAdmission } from '../pipeline/admit-usage.ts';
import type { AttemptOutcome } from '../pipeline/record-usage.ts';
import type { UpstreamFailure } from './upstream-failure.ts';

/**
 * How a bridged tool call reads in the usage record: model `mcp/<server>/<tool>`, provider `mcp`, no
 * tokens and no cost (tool calls are metered, not priced), the bytes sent and received.
 */
export type ToolCallDescription = Omit<AttemptOutcome, 'status' | 'httpStatus'>;

/** Tool calls cost nothing: nothing is reserved from a prepaid balance and no token limit is charged. */
export const TOOL_CALL_ADMISSION: UsageAdmission = { prepaid: false, reservedNanos: 0, tokenCharge: undefined, headers: {} };

export function describeToolCall(server: string, tool: string, streamed: boolean, requestBytes: number): ToolCallDescription {
  const model = `mcp/${server}/${tool}`;
  return {
    model,
    provider: 'mcp',
    rate: { slug: model, inputPriceMicrosPer1k: 0, outputPriceMicrosPer1k: 0 },
    streamed,
    fallbackAttempts: 0,
    usage: ZERO_USAGE,
    requestBytes,
  };
}

/** Status, HTTP status and error code of a call that got no result. */
const failures: Record<UpstreamFailure['kind'] | 'internal', Pick<AttemptOutcome, 'status' | 'httpStatus' | 'errorCode'>> = {
  timeout: { status: 'failed', httpStatus: 504, errorCode: 'mcp_upstream_timeout' },
  unavailable: { status: 'failed', httpStatus: 502, errorCode: 'mcp_upstream_unavailable' },
  invalid: { status: 'failed', httpStatus: 502, errorCode: 'mcp_upstream_invalid_answer' },
  interrupted: { status: 'failed', httpStatus: 502, errorCode: 'mcp_upstream_interrupted' },
  too_large: { status: 'failed', httpStatus: 502, errorCode: 'mcp_upstream_answer_too_large' },
  error: { status: 'failed', httpStatus: 200, errorCode: 'mcp_upstream_error' },
  cancelled: { status: 'cancelled', httpStatus: 200, errorCode: 'client_cancelled' },
  internal: { status: 'failed', httpStatus: 500, errorCode: 'internal_error' },
};

export function failedCallOutcome(call: ToolCallDescription, failure: { kind: UpstreamFailure['kind'] | 'internal' }): AttemptOutcome {
  return { ...call, ...failures[failure.kind] };
}
