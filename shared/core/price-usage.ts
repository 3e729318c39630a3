import type { RateCardEntry } from './project-config.ts';
import type { TokenUsage } from './token-usage.ts';
import { nanosPerUnit, UNIT_PRICES } from './unit-prices.ts';
import { rateForPrompt } from './long-context-prices.ts';
import { MAX_USD_AMOUNT } from './money-limits.ts';
import { formatScaledInteger } from './usd-decimal.ts';

export const NANOS_PER_USD = 1_000_000_000n;

/**
 * The largest cost one usage record carries: 2^53 − 1 nano-USD (about 9,007,199.25 USD), the largest integer
 * a JSON number (the record on the queue, the generation item) holds exactly. Prices are capped
 * (MAX_PRICE_MICROS) so that no realistic request comes near it.
 */
export const MAX_RECORD_COST_NANOS = Number.MAX_SAFE_INTEGER;
const MAX_RECORD_COST = BigInt(MAX_RECORD_COST_NANOS);

/**
 * Cost in nano-USD. A price of N micro-USD per 1,000 tokens is exactly N nano-USD per token, so the cost
 * is a sum of integer products: no rounding, no floating point. The prompt splits four ways: cache reads
 * at the cached price, five-minute cache writes at the cache-write price (each falls back to the input
 * price when the rate card has none), one-hour cache writes at the one-hour price (oneHourCacheWritePrice),
 * the rest at the input price. Reads are capped at the prompt tokens, writes at what remains and one-hour
 * writes at the writes, so no token is charged twice. Units beyond tokens (the request, images, seconds…)
 * add their own prices (unit-prices.ts). A prompt longer than the rate card's long-context threshold is billed,
 * all of it, at the long-context prices (long-context-prices.ts).
 */
export function exactCost(usage: TokenUsage, rateCard: RateCardEntry): bigint {
  const rate = rateForPrompt(rateCard, usage.promptTokens);
  const prompt = BigInt(usage.promptTokens);
  const cacheRead = minBigInt(BigInt(usage.cachedTokens), prompt);
  const cacheWrite = minBigInt(BigInt(usage.cacheWriteTokens ?? 0), prompt - cacheRead);
  const cacheWrite1h = minBigInt(BigInt(usage.cacheWrite1hTokens ?? 0), cacheWrite);
  const uncached = prompt - cacheRead - cacheWrite;
  const inputPrice = BigInt(rate.inputPriceMicrosPer1k);
  const cachedPrice = BigInt(rate.cachedInputPriceMicrosPer1k ?? rate.inputPriceMicrosPer1k);
  const cacheWritePrice = BigInt(rate.cacheWriteInputPriceMicrosPer1k ?? rate.inputPriceMicrosPer1k);
  return (
    uncached * inputPrice +
    cacheRead * cachedPrice +
    (cacheWrite - cacheWrite1h) * cacheWritePrice +
    cacheWrite1h * BigInt(oneHourCacheWritePrice(rate)) +
    BigInt(usage.completionTokens) * BigInt(rate.outputPriceMicrosPer1k) +
    priceUnits(usage, rate)
  );
}

/** How many times the input price a one-hour cache write costs when the rate card sets no price of its own. */
export const ONE_HOUR_CACHE_WRITE_INPUT_MULTIPLE = 2;

/**
 * The price of a prompt token written to a one-hour cache, micro-USD per 1,000: the rate card's, else
 * twice its input price. Anthropic prices one-hour writes at 2× the base input price (five-minute writes
 * 1.25×), so a rate card written before the field, or one that sets only the input price, bills them as
 * Anthropic does rather than at the five-minute price; a price of one's own overrides it.
 */
export function oneHourCacheWritePrice(rate: Pick<RateCardEntry, 'inputPriceMicrosPer1k' | 'cacheWrite1hInputPriceMicrosPer1k'>): number {
  return rate.cacheWrite1hInputPriceMicrosPer1k ?? rate.inputPriceMicrosPer1k * ONE_HOUR_CACHE_WRITE_INPUT_MULTIPLE;
}

/**
 * The cost a usage record carries and a client is shown, in nano-USD: exact up to MAX_RECORD_COST_NANOS,
 * held there beyond (recordedCost). Never throws: pricing runs after the upstream answered, and must lose
 * neither the answer nor its record.
 */
export function priceUsage(usage: TokenUsage, rate: RateCardEntry): number {
  return recordedCost(exactCost(usage, rate));
}

/** An exact cost as a record holds it: beyond MAX_RECORD_COST_NANOS, that ceiling (costBeyondRecord tells). */
export function recordedCost(nanos: bigint): number {
  return nanos > MAX_RECORD_COST ? MAX_RECORD_COST_NANOS : Number(nanos);
}

export function costBeyondRecord(nanos: bigint): boolean {
  return nanos > MAX_RECORD_COST;
}

function priceUnits(usage: TokenUsage, rate: RateCardEntry): bigint {
  let nanos = 0n;
  for (const price of UNIT_PRICES) {
    const units = usage.units?.[price.unit] ?? 0;
    if (units > 0) nanos += BigInt(units) * nanosPerUnit(price, rate[price.rateField] ?? 0);
  }
  return nanos;
}

function minBigInt(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

/** Nano-USD as an exact decimal USD string: 1500 → "0.0000015", -2n → "-0.000000002". */
export function formatUsd(nanos: number | bigint): string {
  return formatScaledInteger(BigInt(nanos), 9);
}

/** Parses a USD amount given as a decimal ("12.5", "0.000000001") into nano-USD, exactly, whatever its size. */
export function parseUsdToNanos(usd: string): bigint | undefined {
  const match = /^(\d+)(?:\.(\d{1,9}))?$/.exec(usd.trim());
  if (!match) return undefined;
  const whole = BigInt(match[1] ?? '0') * NANOS_PER_USD;
  const fraction = BigInt((match[2] ?? '').padEnd(9, '0'));
  return whole + fraction;
}

const MAX_AMOUNT_NANOS = parseUsdToNanos(MAX_USD_AMOUNT) ?? 0n;

/** What is wrong with a balance or credit as an owner typed it, or undefined when it is one: the CLI's check and the admin function's are this one. */
export function usdAmountProblem(usd: string): string | undefined {
  const nanos = parseUsdToNanos(usd);
  if (nanos === undefined) return 'amounts are USD decimals with at most 9 decimal places, e.g. 25 or 0.5';
  if (nanos > MAX_AMOUNT_NANOS) return `amounts are at most ${MAX_USD_AMOUNT} USD`;
  return undefined;
}
