import { MAX_PRICE_MICROS, MAX_USD_AMOUNT } from '../../../shared/core/money-limits.ts';
import { usdAmountProblem } from '../../../shared/core/price-usage.ts';
import { UsageError } from '../usage-error.ts';

/** Turns a flag's text into the admin event's value, or refuses it naming the flag as the user typed it. */
export type FlagValue = (raw: string, flag: string) => unknown;

const POSITIVE_INTEGER = /^[1-9]\d*$/;

export const text: FlagValue = (raw, flag) => {
  if (raw.trim() === '') throw new UsageError(`${flag} must not be empty`);
  return raw;
};

export const positiveInteger: FlagValue = (raw, flag) => {
  if (!POSITIVE_INTEGER.test(raw)) throw new UsageError(`${flag} must be a positive integer, not "${raw}"`);
  return Number(raw);
};

/** A positive integer, or "none" to clear the setting. */
export const positiveIntegerOrNone: FlagValue = (raw, flag) => {
  if (raw === 'none') return raw;
  if (!POSITIVE_INTEGER.test(raw)) throw new UsageError(`${flag} must be a positive integer or "none", not "${raw}"`);
  return Number(raw);
};

/** Integer micro-USD per 1,000 tokens (0 is a price: free), at most MAX_PRICE_MICROS. */
export const microsPer1k: FlagValue = (raw, flag) => {
  if (!isPrice(raw)) throw new UsageError(`${flag} must be a whole number of micro-USD per 1,000 tokens (0 to ${MAX_PRICE_MICROS}), not "${raw}"`);
  return Number(raw);
};

/** Integer micro-USD (0 is a price: free), at most MAX_PRICE_MICROS. */
export const wholeMicros: FlagValue = (raw, flag) => {
  if (!isPrice(raw)) throw new UsageError(`${flag} must be a whole number of micro-USD (0 to ${MAX_PRICE_MICROS}), not "${raw}"`);
  return Number(raw);
};

function isPrice(raw: string): boolean {
  return /^\d+$/.test(raw) && Number(raw) <= MAX_PRICE_MICROS;
}

const USD_AMOUNT = `an amount in USD such as 25 or 0.5 (at most 9 decimals, at most ${MAX_USD_AMOUNT})`;

export const usd: FlagValue = (raw, flag) => {
  if (usdAmountProblem(raw) !== undefined) throw new UsageError(`${flag} must be ${USD_AMOUNT}, not "${raw}"`);
  return raw;
};

export const usdOrNone: FlagValue = (raw, flag) => {
  if (raw === 'none' || usdAmountProblem(raw) === undefined) return raw;
  throw new UsageError(`${flag} must be ${USD_AMOUNT}, or "none", not "${raw}"`);
};

export const onOff: FlagValue = (raw, flag) => {
  if (raw === 'on' || raw === 'off') return raw === 'on';
  throw new UsageError(`${flag} must be "on" or "off", not "${raw}"`);
};

export function oneOf(choices: readonly string[]): FlagValue {
  return (raw, flag) => {
    if (choices.includes(raw)) return raw;
    throw new UsageError(`${flag} must be one of ${choices.join(', ')}, not "${raw}"`);
  };
}

/** A comma-separated list (each item one of `choices` when given), or "none" to clear it. */
export function listOrNone(choices?: readonly string[]): FlagValue {
  return (raw, flag) => {
    if (raw === 'none') return raw;
    const items = raw.split(',').map((item) => item.trim()).filter(Boolean);
    if (items.length === 0) throw new UsageError(`${flag} must be a comma-separated list or "none"`);
    const unknown = choices ? items.filter((item) => !choices.includes(item)) : [];
    if (unknown.length > 0) throw new UsageError(`${flag} takes ${choices?.join(', ')} (comma-separated) or "none", not "${unknown.join(',')}"`);
    return items;
  };
}

/**
 * An allowlist: a comma-separated list, "none" (an empty list: nothing allowed) or "all" (no list: the
 * restriction lifted). Unlike listOrNone's "none", which clears a list and so allows everything.
 */
export const allowlist: FlagValue = (raw, flag) => {
  if (raw === 'none') return [];
  if (raw === 'all') return raw;
  const items = raw.split(',').map((item) => item.trim()).filter(Boolean);
  if (items.length === 0) throw new UsageError(`${flag} must be a comma-separated list, "none" or "all"`);
  return items;
};

/** `NAME=VALUE` (an HTTP header; the value may itself hold "="). */
export const headerPair: FlagValue = (raw, flag) => {
  const equals = raw.indexOf('=');
  if (equals <= 0 || equals === raw.length - 1) throw new UsageError(`${flag} takes NAME=VALUE, e.g. "Authorization=Bearer …"`);
  return { name: raw.slice(0, equals).trim(), value: raw.slice(equals + 1) };
};
