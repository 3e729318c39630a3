import * as z from 'zod';
import { asJsonObject } from '../core/json-object.ts';

/** The routing-only fields of a JSON generation request (spec 2.2): consumed by the gateway, never sent upstream. */
export const routingFieldsShape = {
  models: z.array(z.string().min(1)).optional(),
  route: z.literal('fallback').optional(),
  provider: z.record(z.string(), z.unknown()).nullish(),
};

/**
 * OpenRouter's usage-accounting switch, `usage: {"include": true}`: the client asks for this request's usage
 * with its cost, as if the project had usage-cost injection on (`include: false`, or no `usage`, leaves the
 * project's setting). The gateway's own, like the routing fields: never sent upstream, where OpenAI refuses
 * parameters it does not know.
 */
export const usageAccountingShape = {
  usage: z.object({ include: z.boolean().nullish() }, { error: 'expected an object such as {"include": true}' }).nullish(),
};

/** The usage-accounting fields, to remove from a body before it goes upstream. */
export const USAGE_ACCOUNTING_FIELDS = ['usage'] as const;

/**
 * OpenRouter's prompt transforms (`transforms: ["middle-out"]`: drop messages from the middle of a prompt
 * too long for the model): accepted, so that an OpenRouter client's body works unchanged, and not applied
 * (a prompt too long gets the provider's error; `x-gateway-dropped-fields` names them). The gateway's own,
 * like the routing fields: never sent upstream, where OpenAI refuses parameters it does not know.
 */
export const promptTransformsShape = {
  transforms: z.array(z.string(), { error: 'expected an array of transform names such as ["middle-out"]' }).nullish(),
};

/** The prompt-transform fields, to remove from a body before it goes upstream. */
export const PROMPT_TRANSFORM_FIELDS = ['transforms'] as const;

/** Every gateway-only field of a JSON generation request: routing, usage accounting and prompt transforms. */
export const gatewayFieldsShape = { ...routingFieldsShape, ...usageAccountingShape, ...promptTransformsShape };

/** The gateway-only fields a (validated) body set that the gateway accepts without applying: named to the client. */
export function unappliedGatewayFields(body: Record<string, unknown>): string[] {
  return Array.isArray(body.transforms) && body.transforms.length > 0 ? ['transforms'] : [];
}

/** Whether a (validated) request body asks for its usage with cost: OpenRouter's `usage.include`. */
export function asksForUsageCost(body: Record<string, unknown>): boolean {
  return asJsonObject(body.usage)?.include === true;
}
