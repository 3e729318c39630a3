import type { CanonicalOutput, CanonicalResponse } from '../../canonical/canonical-response.ts';
import { parseProviderPayload } from '../../canonical/read-payload.ts';
import type { CanonicalRequest } from '../../canonical/canonical-request.ts';
import { customToolNames, toolCallArgumentsOf } from '../../canonical/custom-tool-input.ts';
import { GatewayError } from '../../core/errors.ts';
import { anthropicMessageSchema } from './anthropic-wire-types.ts';
import { mapAnthropicStopReason } from './messages-stop-reason.ts';
import { readAnthropicUsage } from './messages-usage.ts';

/** Whether a complete answer is an Anthropic message (`type: "message"`, `content` blocks), not an error (`type: "error"`). */
export function isAnthropicMessage(payload: Record<string, unknown>): boolean {
  return Array.isArray(payload.content) && (payload.type ?? 'message') === 'message';
}

/**
 * An Anthropic message in canonical terms: text, thinking (with its signature) and tool_use blocks (input as
 * JSON text); redacted thinking and server-tool blocks have no canonical form and are left out. A call of a
 * custom tool of the translated `request` is a custom tool call again, its text taken out of `input`.
 */
export function readMessagesResponse(payload: unknown, request?: CanonicalRequest): CanonicalResponse {
  const customTools = customToolNames(request);
  const message = parseProviderPayload(anthropicMessageSchema, payload);
  if (!message) {
    throw new GatewayError('upstream', 'The upstream answered with a body that is not a message.', { code: 'upstream_invalid_response' });
  }
  const content: CanonicalOutput[] = [];
  for (const block of message.content ?? []) {
    if (block.type === 'text' && block.text) content.push({ type: 'text', text: block.text });
    else if (block.type === 'thinking' && block.thinking) content.push({ type: 'reasoning', text: block.thinking, ...(block.signature ? { signature: block.signature } : {}) });
    else if (block.type === 'tool_use') {
      const custom = customTools.has(block.name ?? '');
      const argumentsText = toolCallArgumentsOf(block.input, custom);
      content.push({ type: 'tool-call', id: block.id ?? '', name: block.name ?? '', arguments: argumentsText, ...(custom ? { custom } : {}) });
    }
  }
  const usage = readAnthropicUsage(message.usage);
  return {
    id: message.id ?? '',
    model: message.model ?? '',
    content,
    finish: mapAnthropicStopReason(message.stop_reason),
    ...(message.stop_reason ? { rawFinish: message.stop_reason } : {}),
    ...(usage ? { usage } : {}),
  };
}
