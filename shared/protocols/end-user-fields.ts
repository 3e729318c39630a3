import { asJsonObject } from '../core/json-object.ts';

/*
 * Where a protocol's body names the end user a request is made for: the app's own stable id of its user, which
 * the provider uses for abuse monitoring. The gateway records it as attribution (`endUser`) and sends the field
 * upstream as it came (a translated request: within the upstream's length, canonical/end-user-id.ts); a value
 * that is not a non-empty string names no one.
 */

/**
 * OpenAI's bodies (chat completions, completions, Responses, embeddings, images): `user`, else
 * `safety_identifier`, the name OpenAI's newer documents give it. `user` first, as OpenRouter records it.
 */
export function openAiEndUser(body: Record<string, unknown>): string | undefined {
  return nonEmptyText(body.user) ?? nonEmptyText(body.safety_identifier);
}

/** Anthropic's Messages: `metadata.user_id`. */
export function anthropicEndUser(body: Record<string, unknown>): string | undefined {
  return nonEmptyText(asJsonObject(body.metadata)?.user_id);
}

function nonEmptyText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
