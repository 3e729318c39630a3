import { addUnits } from '../core/billed-units.ts';
import type { GatewayResponse } from '../http/gateway-http.ts';
import type { Bridge } from '../protocols/bridge.ts';
import { relayBytes } from '../transport/bytes-relay.ts';
import { withAcceptedRequest } from './accepted-request.ts';
import type { UsageEstimator } from './estimate-usage.ts';
import type { ServedAttempt } from './failover.ts';
import type { AttemptDescription, UsageSettlement } from './record-usage.ts';

export interface BytesAnswer {
  bridge: Bridge;
  served: ServedAttempt;
  estimate: UsageEstimator;
  settlement: UsageSettlement;
  attempt: AttemptDescription;
  servedBy: Record<string, string>;
  /** What is left of the request's deadline (the body must have ended by then), and how long the upstream may be silent. */
  timeLimits: { remainingMs: number; idleMs: number };
}

/**
 * An answer that is not JSON nor an event stream (speech audio, a transcript as text or subtitles): the
 * upstream's bytes reach the client as they arrive, with the upstream's content type. The bridge's meter
 * watches them go by; the request settles when the body ends, fails (a body still coming at the request's
 * deadline, or an upstream silent for longer than its head could take, too) or is cancelled.
 */
export function bytesAnswer(answer: BytesAnswer): GatewayResponse {
  const { bridge, served } = answer;
  const meter = bridge.createBytesMeter();
  // A bodiless answer (a pass-through's 204) relays as an empty body, settled like any other.
  const upstreamBody = served.response.body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
  const body = relayBytes(upstreamBody, {
    provider: served.target.provider.provider,
    observe: (chunk) => meter.push(chunk),
    timeLimits: answer.timeLimits,
    onSettled: async (settlement) => {
      const metered = meter.end();
      const counted = metered.usage ?? (await answer.estimate({ completionText: '' }));
      const usage = metered.units ? { ...counted, units: addUnits(counted.units, metered.units) } : counted;
      await answer.settlement.settle({
        ...answer.attempt,
        status: settlement.outcome,
        httpStatus: settlement.outcome === 'failed' ? settlement.error.status : served.response.status,
        usage: withAcceptedRequest(usage),
        ...(settlement.outcome === 'failed' ? { errorCode: settlement.error.code } : {}),
      });
    },
  });
  const contentType = served.response.headers.get('content-type') ?? 'application/octet-stream';
  return { status: served.response.status, headers: { 'content-type': contentType, ...answer.servedBy }, body };
}
