import { toChatFinishReason } from '../openai-chat/chat-finish-reason.ts';
import { renderChatUsage, stringifyWithUsageCost } from '../openai-chat/chat-usage.ts';
import type { ClientStream, Presentation } from '../wire-protocol.ts';

/**
 * A complete legacy completion as the stream its client asked for (the provider ignored `stream: true`),
 * written from its canonical events (complete-answer-stream.ts) as OpenAI streams a completion: one
 * `text_completion` chunk with the text and its finish_reason, the usage chunk (`choices: []`) when the
 * client asked for usage (with `cost` when injection is on), then `data: [DONE]`. As for chat, the
 * canonical answer carries the first choice only.
 */
export function createCompletionAnswerStream(presentation: Presentation): ClientStream {
  const envelope = { id: `cmpl-${presentation.responseId}`, object: 'text_completion', created: presentation.created, model: presentation.model };
  let text = '';
  return {
    push(_event, canonical) {
      let frames = '';
      for (const event of canonical) {
        if (event.type === 'message-start') {
          if (event.id) envelope.id = event.id;
          if (event.model) envelope.model = event.model;
        } else if (event.type === 'text-delta') {
          text += event.text;
        } else if (event.type === 'finish') {
          const choice = { text, index: 0, logprobs: null, finish_reason: event.raw ?? toChatFinishReason(event.reason) };
          frames += `data: ${JSON.stringify({ ...envelope, choices: [choice] })}\n\n`;
        }
      }
      return frames;
    },
    async end() {
      return (await usageChunk()) + 'data: [DONE]\n\n';
    },
  };

  async function usageChunk(): Promise<string> {
    if (!presentation.showUsage && !presentation.injectCost) return '';
    const usage = await presentation.finalUsage();
    const chunk = { ...envelope, choices: [] };
    if (presentation.injectCost) return `data: ${stringifyWithUsageCost(chunk, renderChatUsage(usage), presentation.priceUsd(usage))}\n\n`;
    return `data: ${JSON.stringify({ ...chunk, usage: renderChatUsage(usage) })}\n\n`;
  }
}
