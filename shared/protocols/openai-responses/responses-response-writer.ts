import type { CanonicalResponse } from '../../canonical/canonical-response.ts';
import { ZERO_USAGE } from '../../core/token-usage.ts';
import type { Presentation } from '../wire-protocol.ts';
import { asksForEncryptedReasoning } from './reasoning-carrier.ts';
import { stringifyWithResponseCost } from './responses-event-frame.ts';
import { messageItem, outputItemId, reasoningItem, responseObject, toolCallItem, type ItemStatus } from './responses-output-items.ts';
import { toResponsesStatus } from './responses-status.ts';
import { renderResponsesUsage } from './responses-usage.ts';

/** The id of a response the gateway writes: made of the request's id (`resp_…`). */
export function responsesAnswerId(_upstreamId: string | undefined, responseId: string): string {
  return `resp_${responseId}`;
}

/**
 * A canonical answer as a response object: reasoning items (the thinking as summary text, a signature or
 * encrypted content carried in `encrypted_content` when the request's `include` asks for it), one message item per run of text, function and custom
 * tool calls, the status (incomplete for the output cap or the content filter, and so is a message or call
 * they cut off), and usage, with `cost` when the presentation injects it. The id is the gateway's (`resp_…`): a
 * translated answer is stored nowhere.
 */
export function writeResponsesResponse(response: CanonicalResponse, presentation: Presentation): string {
  const responseId = presentation.responseId;
  const carriesReasoning = asksForEncryptedReasoning(presentation.clientBody);
  const output: unknown[] = [];
  for (const part of response.content) {
    const index = output.length;
    if (part.type === 'text') {
      const previous = output.at(-1) as ReturnType<typeof messageItem> | undefined;
      const previousPart = previous?.type === 'message' ? previous.content[0] : undefined;
      if (previousPart) previousPart.text += part.text;
      else output.push(messageItem(outputItemId('message', responseId, index), 'completed', part.text));
    } else if (part.type === 'reasoning') {
      output.push(reasoningItem(outputItemId('reasoning', responseId, index), part.text, carriesReasoning ? part : undefined));
    } else {
      const custom = part.custom === true;
      output.push(toolCallItem(outputItemId(custom ? 'custom_tool_call' : 'function_call', responseId, index), 'completed', { callId: part.id, name: part.name, input: part.arguments, custom }));
    }
  }
  const end = toResponsesStatus(response.finish);
  // The output cap and the content filter stop the answer in its last item: a message or call they cut off is incomplete.
  const last = output.at(-1) as { type: string; status: ItemStatus } | undefined;
  if (end.status === 'incomplete' && last && last.type !== 'reasoning') last.status = 'incomplete';
  const usage = response.usage ?? ZERO_USAGE;
  const build = (usageShown: Record<string, unknown>) =>
    responseObject({
      id: responsesAnswerId(response.id, responseId),
      createdAt: presentation.created,
      model: response.model || presentation.model,
      status: end.status,
      output,
      usage: usageShown,
      incompleteReason: end.incompleteReason,
      request: presentation.clientBody,
    });
  if (presentation.injectCost) return stringifyWithResponseCost((withCost) => build(withCost(renderResponsesUsage(usage))), presentation.priceUsd(usage));
  return JSON.stringify(build(renderResponsesUsage(usage)));
}
