import { asJsonObject } from '../core/json-object.ts';

/**
 * The provider's own price fields of a usage object (OpenRouter's `cost` and `cost_details`, which every
 * answer of it carries, chat's and its Responses API's): what the provider charged the gateway, not what the
 * gateway bills. `cost` is the gateway's field when it injects its own (and absent when it does not), so the
 * provider's never reaches a client.
 */
const PROVIDER_COST_FIELDS = ['cost', 'cost_details'] as const;

/** Whether a chat payload's usage (or a response object's) holds the provider's own price fields. */
export function carriesProviderCost(payload: Record<string, unknown>): boolean {
  const usage = asJsonObject(payload.usage);
  return usage !== undefined && PROVIDER_COST_FIELDS.some((field) => field in usage);
}

/** The usage object without the provider's own price fields. */
export function withoutProviderCost(usage: Record<string, unknown>): Record<string, unknown> {
  const kept = { ...usage };
  for (const field of PROVIDER_COST_FIELDS) delete kept[field];
  return kept;
}
