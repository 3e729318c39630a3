import type { GatewayRequest } from '../../http/gateway-http.ts';
import { claudeReadableBody } from '../anthropic-messages/messages-request.ts';
import { bedrockBetas } from './bedrock-anthropic-betas.ts';

/** The Messages API version InvokeModel takes for Claude, in the body (Bedrock ignores the header). */
export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/**
 * A Messages body as InvokeModel takes it: the model is in the path and streaming is the operation, so
 * `model` and `stream` leave the body; `anthropic_version` and the betas Bedrock accepts come into it.
 */
export function toBedrockMessagesBody(body: Record<string, unknown>, betas: readonly string[]): Record<string, unknown> {
  const { model: _model, stream: _stream, ...rest } = body;
  return { ...rest, anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...(betas.length > 0 ? { anthropic_beta: [...betas] } : {}) };
}

/**
 * A Messages client's body for Claude on Bedrock, every other field as sent (new parameters reach Bedrock
 * without a gateway release), thinking OpenAI did left out as for Anthropic's API (claudeReadableBody);
 * the client's `anthropic-beta` header becomes `anthropic_beta`.
 */
export function nativeBedrockMessagesBody(body: Record<string, unknown>, _upstreamModel: string, client: GatewayRequest['headers']): string {
  return JSON.stringify(toBedrockMessagesBody(claudeReadableBody(body), bedrockBetas(client['anthropic-beta'] ?? client['upstream-beta'])));
}
