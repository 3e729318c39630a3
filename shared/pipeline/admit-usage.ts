import { GatewayError } from '../core/errors.ts';
import { effectiveModelLimits } from '../core/known-models.ts';
import type { KeyRecord } from '../core/key-record.ts';
import type { RouteTarget } from '../core/plan-route.ts';
import { costBeyondRecord, exactCost, formatUsd, oneHourCacheWritePrice } from '../core/price-usage.ts';
import { rateForPrompt, standardTier } from '../core/long-context-prices.ts';
import type { LimitCharge } from '../core/ports.ts';
import type { BilledUnits } from '../core/billed-units.ts';
import type { AllowedModel, Project, RateCardEntry, WireProtocolId } from '../core/project-config.ts';
import { reasonsAsOpenAiModel } from '../core/reasoning-models.ts';
import { limitChargesFor, rateLimited, rateLimitHeaders, requestChargesFor, tokenCountChargesFor, type NamedCharge } from '../core/rate-limits.ts';
import type { TokenUsage } from '../core/token-usage.ts';
import { maxTokensWithThinking } from '../protocols/anthropic-messages/reasoning-effort-budget.ts';
import { SMALLEST_RESPONSES_CAP } from '../protocols/output-cap.ts';
import { readStore } from './admit-request.ts';
import type { GatewayServices } from './gateway-services.ts';

/** Output tokens assumed for the worst case when neither the request nor the model's known limits set a cap. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;
/**
 * The same for a model of OpenAI's reasoning kind (o1, o3-pro, gpt-5.x not in the known table), whose cap
 * counts its reasoning too: 4,096 would often end it before its answer.
 */
export const DEFAULT_MAX_REASONING_OUTPUT_TOKENS = 32_768;

/** Output tokens assumed for a model whose largest answer nobody told the gateway (a prepaid request is then sent this cap). */
export function defaultOutputCapFor(model: AllowedModel): number {
  return reasonsAsOpenAiModel(model) ? DEFAULT_MAX_REASONING_OUTPUT_TOKENS : DEFAULT_MAX_OUTPUT_TOKENS;
}

export interface UsageAdmission {
  prepaid: boolean;
  reservedNanos: number;
  /** The tokens-per-minute charge taken, corrected once the real count is known. */
  tokenCharge: LimitCharge | undefined;
  headers: Record<string, string>;
}

export interface UsageEstimate {
  /** A quick estimate of the prompt (for tokens per minute, charged up front and corrected once metered). */
  promptTokens: number;
  /** A true upper bound of the prompt tokens any provider can bill for this request (for the balance). */
  promptTokensBound: number;
  /** The request's own output cap, if it sets one: per choice. */
  outputCap: number | undefined;
  /** The choices the provider generates and bills for the request (chat's `n`), each up to the output cap. */
  choices: number;
  /** The thinking budget a translation to Claude may raise the output cap by (GenerationEndpoint.thinkingBudget). */
  thinkingBudget?: number;
  /** The most of each unit beyond tokens the request can be billed (the request, images, characters…). */
  unitsBound?: BilledUnits;
  /** The request names prompt the provider holds (namesPromptHeldByProvider): bounded by the model's context length, not by the body. */
  heldPrompt?: true;
}

/**
 * Step 3 of the request path for requests that reach an upstream: rate limits (429), then the prepaid
 * balance (402), which must cover the worst case (the prompt bound plus the output cap for every choice at
 * the dearest planned target's prices). That worst case is reserved now and settled to the real cost by the writer.
 */
export async function admitUsage(
  services: GatewayServices,
  admitted: { key: KeyRecord; project: Project; targets: readonly RouteTarget[] },
  estimateBound: () => UsageEstimate,
): Promise<UsageAdmission> {
  const now = services.clock.now();
  const { key, project } = admitted;
  // Most requests face no token limit and no balance: they need no estimate.
  const estimate: UsageEstimate = project.tpm !== undefined || project.prepaid ? estimateBound() : { promptTokens: 0, promptTokensBound: 0, outputCap: undefined, choices: 1 };
  // Tokens per minute count the prompt and an explicit output cap (for every choice, raised above a thinking
  // budget as a translation to Claude raises it) now; the real output is added once metered.
  const charges = limitChargesFor(key, project, estimate.promptTokens + explicitOutputCap(estimate) * estimate.choices, now);
  let headers: Record<string, string> = {};
  if (charges.length > 0) {
    const decision = await readStore(() => services.rateLimiter.acquire(charges));
    if (!decision.allowed) throw rateLimited(decision, charges, now);
    headers = rateLimitHeaders(charges, decision.counts, now);
  }
  const tokenCharge = charges.find((charge) => charge.kind === 'tokens');
  if (!project.prepaid) return { prepaid: false, reservedNanos: 0, tokenCharge, headers };

  const worstCase = worstCaseOfTargets(estimate, admitted.targets);
  // A refused request should not use up the client's rate limits.
  const giveBackCharges = () =>
    Promise.all(charges.map((charge) => services.rateLimiter.adjust(charge.counterKey, -charge.amount, charge.windowEndsAt))).catch(() => undefined);
  let reserved: boolean;
  try {
    reserved = worstCase !== undefined && (worstCase === 0 || (await readStore(() => services.balances.reserve(project.projectId, worstCase))));
  } catch (error) {
    await giveBackCharges();
    throw error;
  }
  if (!reserved || worstCase === undefined) {
    await giveBackCharges();
    const amount = worstCase === undefined ? 'more than any balance holds' : `${formatUsd(worstCase)} USD`;
    const units = describeUnitsBound(estimate.unitsBound);
    const askFor = estimate.unitsBound?.webSearches ? 'max_tokens, or a web search tool\'s max_uses' : 'max_tokens';
    const prompt = estimate.heldPrompt ? 'the prompt (with what the provider holds for it, such as a previous_response_id or a file: up to the model\'s context length)' : 'the prompt';
    const unbounded = estimate.heldPrompt && worstCase === undefined ? ' An administrator can state the model\'s context length with "model allow … --context-length".' : '';
    throw new GatewayError(
      'payment_required',
      `The project's balance cannot cover this request's worst case (${amount}: ${prompt} plus its most output tokens${units}). Add credit or lower ${askFor}.${unbounded}`,
      { code: 'insufficient_balance' },
    );
  }
  return { prepaid: true, reservedNanos: worstCase, tokenCharge, headers };
}

/** The units beyond tokens a worst case counts, as its refusal names them: `, and up to 10 web searches`. */
const UNIT_WORDS: Partial<Record<keyof BilledUnits, string>> = {
  images: 'images',
  audioSeconds: 'seconds of audio',
  characters: 'characters spoken',
  searchUnits: 'rerank search units',
  videoSeconds: 'seconds of video',
  webSearches: 'web searches',
};

function describeUnitsBound(units: BilledUnits | undefined): string {
  const named = Object.entries(UNIT_WORDS).flatMap(([unit, words]) => {
    const count = units?.[unit as keyof BilledUnits] ?? 0;
    return count > 0 ? [`${count.toLocaleString('en-US')} ${words}`] : [];
  });
  return named.length > 0 ? `, and up to ${named.join(', ')}` : '';
}

/**
 * The dearest planned target's worst case, or undefined when it passes the range of exact integers
 * (a cap times many choices): no balance covers that.
 */
function worstCaseOfTargets(estimate: UsageEstimate, targets: readonly RouteTarget[]): number | undefined {
  const worst = Math.max(...targets.map((target) => worstCaseNanos(estimate, target)));
  return Number.isFinite(worst) ? worst : undefined;
}

/** The request's own output cap, raised above its thinking budget as a translation to Claude raises it; 0 without a cap. */
function explicitOutputCap(estimate: UsageEstimate): number {
  if (estimate.outputCap === undefined) return 0;
  return estimate.thinkingBudget === undefined ? estimate.outputCap : maxTokensWithThinking(estimate.outputCap, estimate.thinkingBudget);
}

/**
 * The most a target can bill for the request: the prompt bound at the dearest of the target's prompt prices
 * (a prompt may be billed as cache writes, which cost more than plain input), plus the output cap (the
 * request's, else the model's known limit, else defaultOutputCapFor's; raised above a thinking budget as
 * a translation to Claude raises it) once per choice at the output price, plus the most of each unit beyond
 * tokens the endpoint says the request can be billed, at its price.
 */
export function worstCaseNanos(estimate: UsageEstimate, target: RouteTarget): number {
  const promptTokensBound = promptBoundFor(estimate, target);
  if (!Number.isFinite(promptTokensBound)) return Number.POSITIVE_INFINITY;
  const usage = worstCaseUsage(estimate, target, promptTokensBound);
  // A prompt bound past the long-context threshold may still be a short prompt: the dearer of the two tiers.
  const tiers = rateTiersFor(target.rate, promptTokensBound);
  const exact = tiers.map((rate) => exactCost(usage, worstCaseRate(target, rate))).reduce((dearest, cost) => (cost > dearest ? cost : dearest));
  // Beyond what a record holds exactly, no balance covers it (pricing a record would hold it at the ceiling).
  return costBeyondRecord(exact) ? Number.POSITIVE_INFINITY : Number(exact);
}

/** The prompt bound of the request at a target: prompt the provider holds is bounded by the model's context length only, of unknown size by nothing. */
function promptBoundFor(estimate: UsageEstimate, target: RouteTarget): number {
  if (!estimate.heldPrompt) return estimate.promptTokensBound;
  return Math.max(estimate.promptTokensBound, effectiveModelLimits(target.model).contextLength ?? Number.POSITIVE_INFINITY);
}

function worstCaseUsage(estimate: UsageEstimate, target: RouteTarget, promptTokensBound: number): TokenUsage {
  const modelMaximum = effectiveModelLimits(target.model).maxOutputTokens ?? undefined;
  // At least the Responses API's smallest cap, which a translation to that API raises a smaller one to (output-cap.ts).
  const cap = Math.max(estimate.outputCap ?? modelMaximum ?? defaultOutputCapFor(target.model), SMALLEST_RESPONSES_CAP);
  // A translation to Claude raises max_tokens above the thinking budget, never past the model's known maximum (messages-thinking.ts).
  const maxOutputTokens =
    estimate.thinkingBudget === undefined ? cap : Math.min(maxTokensWithThinking(cap, estimate.thinkingBudget), modelMaximum ?? Number.POSITIVE_INFINITY);
  return {
    promptTokens: promptTokensBound,
    completionTokens: maxOutputTokens * estimate.choices,
    cachedTokens: 0,
    reasoningTokens: 0,
    estimated: true,
    ...(estimate.unitsBound ? { units: estimate.unitsBound } : {}),
  };
}

/** The protocols whose usage reports one-hour cache writes: Anthropic's, and Bedrock's for Claude. */
const ONE_HOUR_CACHE_PROTOCOLS: ReadonlySet<WireProtocolId> = new Set(['anthropic-messages', 'bedrock-anthropic-messages', 'bedrock-converse']);

/**
 * The rates a request may be billed at: the standard one, and the long-context tier's too when the prompt
 * bound passes its threshold (the bound is the most the prompt can be, not what it is).
 */
function rateTiersFor(rate: RateCardEntry, promptTokensBound: number): RateCardEntry[] {
  const long = rateForPrompt(rate, promptTokensBound);
  return long === rate ? [rate] : [standardTier(rate), long];
}

/**
 * The target's rate with every prompt token at the dearest of its prompt prices; the one-hour write price
 * counts only where a one-hour cache can be written, so other models keep their worst case.
 */
function worstCaseRate(target: RouteTarget, rate: RateCardEntry): RateCardEntry {
  const writesHourCaches = target.provider.protocols.some((protocol) => ONE_HOUR_CACHE_PROTOCOLS.has(protocol));
  const dearestPromptPrice = Math.max(
    rate.inputPriceMicrosPer1k,
    rate.cachedInputPriceMicrosPer1k ?? 0,
    rate.cacheWriteInputPriceMicrosPer1k ?? 0,
    writesHourCaches ? oneHourCacheWritePrice(rate) : 0,
  );
  return {
    ...rate,
    inputPriceMicrosPer1k: dearestPromptPrice,
    cachedInputPriceMicrosPer1k: dearestPromptPrice,
    cacheWriteInputPriceMicrosPer1k: dearestPromptPrice,
    cacheWrite1hInputPriceMicrosPer1k: dearestPromptPrice,
  };
}

/**
 * Rate limits for requests that reach no model (the tool bridge's tool calls): they count toward requests
 * per minute, so a flood of them is refused like any other, and take nothing from tokens or the balance.
 * `requests` counts more than one where one POST carries several (batched tool calls).
 */
export async function admitRequestRate(services: GatewayServices, admitted: { key: KeyRecord; project: Project }, requests = 1): Promise<Record<string, string>> {
  const now = services.clock.now();
  const charges = requestChargesFor(admitted.key, admitted.project, now).map((charge) => ({ ...charge, amount: requests }));
  return acquireCharges(services, charges, now);
}

/**
 * Rate limits for a token count (count_tokens, input_tokens): the requests per minute in windows of their own
 * (tokenCountChargesFor), nothing from the generation requests' windows, tokens or the balance.
 */
export async function admitTokenCountRate(services: GatewayServices, admitted: { key: KeyRecord; project: Project }, endpoint?: string): Promise<Record<string, string>> {
  const now = services.clock.now();
  return acquireCharges(services, tokenCountChargesFor(admitted.key, admitted.project, now, endpoint), now);
}

async function acquireCharges(services: GatewayServices, charges: readonly NamedCharge[], now: number): Promise<Record<string, string>> {
  if (charges.length === 0) return {};
  const decision = await readStore(() => services.rateLimiter.acquire(charges));
  if (!decision.allowed) throw rateLimited(decision, charges, now);
  return rateLimitHeaders(charges, decision.counts, now);
}
