import { hasUnits } from '../core/billed-units.ts';
import type { EndpointName } from '../core/endpoints.ts';
import { costBeyondRecord, exactCost, recordedCost } from '../core/price-usage.ts';
import type { TokenUsage } from '../core/token-usage.ts';
import type { RateCardEntry } from '../core/project-config.ts';
import { randomBase62 } from '../core/project-keys.ts';
import type { Attribution, UsageRecord } from '../core/usage-record.ts';
import type { LimitCharge } from '../core/ports.ts';
import type { UsageAdmission } from './admit-usage.ts';
import type { RecordAnnotations } from './generation-endpoint.ts';
import type { GatewayServices } from './gateway-services.ts';

export interface RequestMeteringContext {
  requestId: string;
  projectId: string;
  keyId: string;
  endpoint: EndpointName;
  attribution: Attribution;
  startedAt: number;
  /** What admission reserved (prepaid projects) and the tokens-per-minute charge to correct. */
  admission: UsageAdmission;
  /** The endpoint's additions to the record, worked out when it is written. */
  annotate?: () => Promise<RecordAnnotations>;
}

/** The error code of a record whose exact cost passed MAX_RECORD_COST_NANOS: its costNanos is that ceiling. */
export const COST_BEYOND_RECORD = 'cost_out_of_range';

/** The parts of a usage record that depend on the target tried, not on its answer. */
export interface AttemptDescription {
  model: string;
  provider: string;
  rate: RateCardEntry;
  streamed: boolean;
  fallbackAttempts: number;
  /** When the serving upstream's response head arrived (ms since the epoch). */
  upstreamRespondedAt?: number;
}

export interface AttemptOutcome extends AttemptDescription {
  status: UsageRecord['status'];
  httpStatus: number;
  usage: TokenUsage;
  errorCode?: string;
  finishReason?: string;
  /** The finish in canonical words (UsageRecord's `finish`). */
  finish?: UsageRecord['finish'];
  upstreamId?: string;
  /** The id the client found in the answer's body (Bridge.answerId). */
  answerId?: string;
  /** Of the request's reservation, what a created object keeps held for its own record (a video's seconds): not given back now. */
  keptReservedNanos?: number;
  /** Sizes of what went upstream and came back, where the endpoint measures them (the tool bridge). */
  requestBytes?: number;
  responseBytes?: number;
}

/**
 * Builds the one usage record of a request and hands it to the usage sink. If the sink fails, the record
 * is logged whole (it holds no prompt, completion or secret) so that it can be replayed: usage is never
 * dropped silently, and the client's response is not failed for it.
 */
export async function recordUsage(services: GatewayServices, context: RequestMeteringContext, outcome: AttemptOutcome, recordId?: string): Promise<UsageRecord> {
  // An annotation that cannot be worked out must not cost the record.
  const annotations = context.annotate ? await context.annotate().catch(() => ({})) : {};
  const record = buildUsageRecord(services, context, outcome, recordId ?? newRecordId(services), annotations);
  try {
    await services.usageSink.send(record);
  } catch (error) {
    services.reportUnsentUsage(record, error);
  }
  await correctTokenCharge(services, context.admission.tokenCharge, outcome.usage);
  return record;
}

function newRecordId(services: GatewayServices): string {
  return `rec-${randomBase62(24, services.randomBytes)}`;
}

function buildUsageRecord(services: GatewayServices, context: RequestMeteringContext, outcome: AttemptOutcome, recordId: string, annotations: RecordAnnotations = {}): UsageRecord {
  const { usage } = outcome;
  const cost = exactCost(usage, outcome.rate);
  // Optional fields are added by assignment: conditional spreads cost several µs each on every request.
  const record: UsageRecord = {
    version: 1,
    recordId,
    requestId: context.requestId,
    projectId: context.projectId,
    keyId: context.keyId,
    endpoint: context.endpoint,
    model: outcome.model,
    provider: outcome.provider,
    streamed: outcome.streamed,
    status: outcome.status,
    httpStatus: outcome.httpStatus,
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    cachedTokens: usage.cachedTokens,
    cacheWriteTokens: usage.cacheWriteTokens ?? 0,
    cacheWrite1hTokens: usage.cacheWrite1hTokens ?? 0,
    reasoningTokens: usage.reasoningTokens,
    estimated: usage.estimated,
    costNanos: recordedCost(cost),
    prepaid: context.admission.prepaid,
    reservedNanos: context.admission.reservedNanos - (outcome.keptReservedNanos ?? 0),
    fallbackAttempts: outcome.fallbackAttempts,
    latencyMs: Math.max(0, Math.round(services.clock.now() - context.startedAt)),
    createdAt: new Date(context.startedAt).toISOString(),
    attribution: annotations.attribution ? { ...annotations.attribution, ...context.attribution } : { ...context.attribution },
  };
  if (outcome.upstreamId) record.upstreamId = outcome.upstreamId;
  if (outcome.answerId) record.answerId = outcome.answerId;
  if (outcome.errorCode) record.errorCode = outcome.errorCode;
  // A price stored before prices were capped, or an absurd count: the tokens are kept, the cost held at the ceiling.
  else if (costBeyondRecord(cost)) record.errorCode = COST_BEYOND_RECORD;
  if (outcome.finishReason) record.finishReason = outcome.finishReason;
  if (outcome.finish) record.finish = outcome.finish;
  if (hasUnits(usage.units)) record.units = usage.units;
  if (outcome.upstreamRespondedAt !== undefined) record.upstreamLatencyMs = Math.max(0, Math.round(outcome.upstreamRespondedAt - context.startedAt));
  if (outcome.requestBytes !== undefined) record.requestBytes = outcome.requestBytes;
  if (outcome.responseBytes !== undefined) record.responseBytes = outcome.responseBytes;
  if (annotations.compressionSavedTokens !== undefined) record.compressionSavedTokens = annotations.compressionSavedTokens;
  return record;
}

/** The tokens-per-minute window was charged an estimate; now that the real count is known, correct it. */
async function correctTokenCharge(services: GatewayServices, charge: LimitCharge | undefined, usage: TokenUsage): Promise<void> {
  if (!charge) return;
  const difference = usage.promptTokens + usage.completionTokens - charge.amount;
  if (difference === 0) return;
  // Best effort: a failed correction errs on the side of the limit for the rest of the window.
  await services.rateLimiter.adjust(charge.counterKey, difference, charge.windowEndsAt).catch(() => undefined);
}

/**
 * The one place a request's usage is settled: the first outcome given is recorded (which also settles the
 * balance reservation and corrects the tokens-per-minute charge), later ones are ignored, so every exit of
 * a request can hand its outcome over without counting twice.
 */
export function createUsageSettlement(
  services: GatewayServices,
  context: RequestMeteringContext,
  afterAnswer?: (work: () => Promise<void>) => void,
  /** A record id derived from what is billed (a finished video), where several requests may bill it. */
  fixedRecordId?: string,
) {
  let settling: Promise<void> | undefined;
  // One id for the provisional record and the real one, so that at most one of them is ever applied.
  const recordId = fixedRecordId ?? newRecordId(services);
  return {
    /**
     * Leaves the provisional outcome with a sink that keeps it, should the process stop before settle. Asked
     * for only then: a sink without it (SQS, in AWS) costs the request nothing.
     */
    expect(outcome: () => AttemptOutcome): void {
      if (settling || !services.usageSink.expect) return;
      try {
        services.usageSink.expect(buildUsageRecord(services, context, outcome(), recordId));
      } catch {
        // Best effort: the real record still follows.
      }
    },
    /** Records the outcome: at once, or, where the host defers it, once the answer has ended. */
    settle(outcome: AttemptOutcome): Promise<void> {
      if (settling) return settling;
      const record = () => recordUsage(services, context, outcome, recordId).then(() => undefined);
      if (afterAnswer) {
        afterAnswer(record);
        settling = Promise.resolve();
      } else settling = record();
      return settling;
    },
    get settled(): boolean {
      return settling !== undefined;
    },
  };
}

export type UsageSettlement = ReturnType<typeof createUsageSettlement>;
