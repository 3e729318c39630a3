import { UPSTREAM_ERROR_CODES } from '../canonical/upstream-error-codes.ts';
import type { CanonicalEvent } from '../canonical/canonical-events.ts';
import { createCanonicalMeter } from '../canonical/canonical-meter.ts';
import { ZERO_USAGE } from '../core/token-usage.ts';
import type { GatewayResponse } from '../http/gateway-http.ts';
import type { Bridge } from '../protocols/bridge.ts';
import type { Presentation } from '../protocols/wire-protocol.ts';
import type { AnswerTimeLimits } from '../transport/answer-time-limits.ts';
import { bodyAsNodeStream } from '../transport/incoming-response.ts';
import { relayStream } from '../transport/stream-relay.ts';
import { redactSecrets, withoutProviderKey } from '../transport/upstream-errors.ts';
import { hasBrokenJsonData, type StreamDecoder } from '../transport/stream-decoder.ts';
import { withAcceptedRequest } from './accepted-request.ts';
import { failedBeforeGenerating, finalUsageOf, type UsageEstimator } from './estimate-usage.ts';
import { holdStatusUntilContent } from './hold-status.ts';
import type { ServedAttempt } from './failover.ts';
import type { GatewayServices } from './gateway-services.ts';
import { failedAnswerMessage } from './invalid-answer.ts';
import type { AttemptDescription, UsageSettlement } from './record-usage.ts';

export interface StreamAnswer {
  bridge: Bridge;
  served: ServedAttempt;
  /** The upstream's framing, made by the bridge before the stream was handed over. */
  decoder: StreamDecoder;
  presentation: Omit<Presentation, 'finalUsage'>;
  estimate: UsageEstimator;
  settlement: UsageSettlement;
  attempt: AttemptDescription;
  servedBy: Record<string, string>;
  services: GatewayServices;
  /** The gateway's id of the request, for what it reports. */
  requestId: string;
  /** The request's deadline and the longest silence between upstream chunks. */
  timeLimits: AnswerTimeLimits;
}

/**
 * The upstream's stream as the client's: each upstream event is read once into canonical events, which
 * the meter observes and, on a translated bridge, the client protocol's writer renders; a native bridge
 * passes the upstream's bytes (usage shown or hidden as the client asked). The stream settles the
 * request's usage when it ends, fails (a time limit passing too) or is cancelled, before the client's
 * stream closes. A client stream that holds its status (the editor's) is answered once it wrote its first
 * bytes, or with the status of the failure that came before them.
 */
export async function streamAnswer(answer: StreamAnswer): Promise<GatewayResponse> {
  const { bridge, served, services } = answer;
  const meter = createCanonicalMeter();
  const reader = bridge.createStreamReader();
  const finalUsage = () => finalUsageOf(meter.result(), answer.estimate);
  const presentation: Presentation = { ...answer.presentation, finalUsage };
  const output = bridge.createClientStream(presentation);
  const body = relayStream(bodyAsNodeStream(served.response), {
    provider: served.target.provider.provider,
    decoder: answer.decoder,
    handler: {
      onEvent(event) {
        // The meter skips it already; the client must not get it either (its SDK would throw mid-answer).
        if (hasBrokenJsonData(event)) {
          services.reportMalformedUpstreamEvent({ requestId: answer.requestId, provider: served.target.provider.provider, model: served.target.model.slug, dataLength: event.data?.length ?? 0 });
          return '';
        }
        const read = reader.push(event.payload ?? event.data);
        // Translated, an answer its upstream ended as failed would reach the client as a normal finish.
        const canonical = withoutKeyInErrors(bridge.native ? read : failedFinishesAsErrors(read, served.target.provider.provider), served.apiKey);
        meter.observe(canonical);
        const text = output.push(event, canonical);
        // An upstream event quoting the key (passed on as it came, natively) is cleared of it; the others pass
        // untouched. (A translated error's words were cleared of it in every form an error may quote it in.)
        if (!quotesKey(event.raw, served.apiKey)) return text;
        return typeof text === 'string' ? withoutProviderKey(text, served.apiKey) : text.then((shown) => withoutProviderKey(shown, served.apiKey));
      },
      onEnd: () => output.end(),
      cutOff: () => reader.cutOff?.() ?? false,
    },
    errorFrame: (error) => output.fail?.(error) ?? bridge.streamErrorFrame(error),
    heartbeatIntervalMs: services.settings.heartbeatIntervalMs,
    timeLimits: answer.timeLimits,
    onSettled: async (settlement) => {
      const observed = meter.result();
      // What the client was answered with: a held failure's status, else the failure after the 200.
      const failure = output.heldFailure?.() ?? (settlement.outcome === 'failed' ? settlement.error : undefined);
      const failed = failure !== undefined || observed.upstreamError !== undefined;
      const errorCode = failure?.code ?? (observed.upstreamError ? UPSTREAM_ERROR_CODES[observed.upstreamError.type] : undefined);
      const answerId = bridge.answerId(observed.upstreamId, presentation.responseId, false);
      await answer.settlement.settle({
        ...answer.attempt,
        status: failed ? 'failed' : settlement.outcome,
        httpStatus: failure?.status ?? 200,
        usage: failedBeforeGenerating(observed) ? ZERO_USAGE : withAcceptedRequest(await finalUsage()),
        ...(errorCode ? { errorCode } : {}),
        ...(observed.finishReason ? { finishReason: observed.finishReason } : {}),
        ...(observed.finish ? { finish: observed.finish } : {}),
        ...(observed.upstreamId ? { upstreamId: observed.upstreamId } : {}),
        ...(answerId ? { answerId } : {}),
      });
    },
  });
  const headers = { 'content-type': bridge.streamContentType, 'cache-control': 'no-cache', ...answer.servedBy };
  if (!output.heldFailure) return { status: 200, headers, body };
  const held = await holdStatusUntilContent(body, () => output.heldFailure?.());
  if ('failure' in held) return bridge.renderError(held.failure, answer.servedBy);
  // The status goes out with the first bytes, a heartbeat maybe: later failures are the stream's to tell.
  output.statusCommitted?.();
  return { status: 200, headers, body: held.body };
}

function isFailedFinish(event: CanonicalEvent): event is Extract<CanonicalEvent, { type: 'finish' }> {
  return event.type === 'finish' && event.reason === 'error';
}

/**
 * A finish the upstream gave as failed (Bedrock's `malformed_model_output`, chat's `finish_reason: "error"`)
 * as the stream's error: the client protocol's in-band error, the record failed, the usage that follows still
 * metered. The same rule as a whole answer's (json-answer.ts). The events as they are when none is one.
 */
function failedFinishesAsErrors(events: CanonicalEvent[], provider: string): CanonicalEvent[] {
  if (!events.some(isFailedFinish)) return events;
  return events.map((event) => (isFailedFinish(event) ? { type: 'error', errorType: 'server', message: failedAnswerMessage(provider, event.raw) } : event));
}

function quotesKey(raw: string, apiKey: string | undefined): apiKey is string {
  return apiKey !== undefined && raw.includes(apiKey);
}

/**
 * A provider's error event may quote the key it was sent (a provider naming the key it rejected): whatever a
 * client's writer makes of the error, an event of its stream or an error answer held until then (the
 * editor's), it never shows the key.
 */
function withoutKeyInErrors(events: readonly CanonicalEvent[], apiKey: string | undefined): readonly CanonicalEvent[] {
  if (!apiKey || !events.some((event) => event.type === 'error')) return events;
  return events.map((event) => (event.type === 'error' ? { ...event, message: redactSecrets(event.message, apiKey) } : event));
}
