import type { MockReply } from './mock-reply.ts';

export interface MockUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** What one answer of the mock is made of, streamed or not. */
export interface MockAnswer {
  id: string;
  /** Unix seconds. */
  created: number;
  model: string;
  reply: MockReply;
  /** How many choices give it (the request's `n`). */
  choices: number;
  /** Deterministic: the same for the same conversation, like the answer id. */
  toolCallId: string;
  usage: MockUsage;
}

export function finishReasonOf(reply: MockReply): 'stop' | 'tool_calls' {
  return reply.kind === 'tool-call' ? 'tool_calls' : 'stop';
}

/** The non-streaming answer, as OpenAI's chat completion JSON. */
export function mockChatCompletion(answer: MockAnswer) {
  const { reply } = answer;
  const message =
    reply.kind === 'tool-call'
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: answer.toolCallId, type: 'function', function: { name: reply.name, arguments: reply.arguments } }],
        }
      : { role: 'assistant', content: reply.text };
  return {
    id: answer.id,
    object: 'chat.completion',
    created: answer.created,
    model: answer.model,
    choices: Array.from({ length: answer.choices }, (_, index) => ({ index, message, finish_reason: finishReasonOf(reply), logprobs: null })),
    usage: answer.usage,
  };
}
