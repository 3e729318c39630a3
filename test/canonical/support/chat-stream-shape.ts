import { expect } from 'vitest';
import { chatFramePayloads } from './openai-sdk-stream.ts';

interface ToolCallDelta {
  index: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

/**
 * Asserts the shape OpenAI streams have: `data:` frames ending with `[DONE]`, a role chunk first, exactly
 * one finish_reason, tool calls numbered 0, 1, 2… in order of appearance, each opened by one delta with
 * id, type, name and empty arguments and continued by argument-only deltas, never reopened once the next
 * call began, and at most one usage chunk, last, with `choices: []`. Returns the finish reason and the
 * number of tool calls.
 */
export function expectWellFormedChatStream(frames: string[]) {
  expect(frames.at(-1)).toBe('data: [DONE]\n\n');
  expect(frames.filter((frame) => frame === 'data: [DONE]\n\n')).toHaveLength(1);
  const payloads = chatFramePayloads(frames);
  const choices = payloads.map((chunk) => chunk.choices as Array<{ delta: Record<string, unknown>; finish_reason: string | null }>);
  expect(choices[0]?.[0]?.delta).toEqual({ role: 'assistant', content: '' });
  const finishReasons = choices.flatMap((list) => list.flatMap((choice) => (choice.finish_reason ? [choice.finish_reason] : [])));
  expect(finishReasons).toHaveLength(1);

  let current = -1;
  for (const delta of choices.flatMap((list) => list.flatMap((choice) => (choice.delta.tool_calls ?? []) as ToolCallDelta[]))) {
    if (delta.index === current + 1) {
      current = delta.index;
      expect(delta).toEqual({ index: current, id: expect.any(String), type: 'function', function: { name: expect.any(String), arguments: '' } });
    } else {
      expect(delta.index).toBe(current);
      expect(Object.keys(delta).sort()).toEqual(['function', 'index']);
      expect(Object.keys(delta.function ?? {})).toEqual(['arguments']);
    }
  }
  const usageChunks = payloads.filter((chunk) => chunk.usage !== undefined);
  expect(usageChunks.length).toBeLessThanOrEqual(1);
  if (usageChunks[0]) expect(usageChunks[0]).toBe(payloads.at(-1));
  if (usageChunks[0]) expect(usageChunks[0].choices).toEqual([]);
  return { finishReason: finishReasons[0], toolCallCount: current + 1 };
}
