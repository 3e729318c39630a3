import { describe, expect, it } from 'vitest';
import { tokenUsage } from '../../support/token-usage.ts';
import { presentChatCompletion } from '../../../shared/protocols/openai-chat/chat-native-response.ts';
import { createChatPassThrough } from '../../../shared/protocols/openai-chat/chat-pass-through.ts';
import { createChatStreamReader } from '../../../shared/protocols/openai-chat/chat-stream-reader.ts';
import { decodeSseEvent } from '../../../shared/transport/stream-decoder.ts';
import { presentation } from '../../canonical/support/translate.ts';

const usage = tokenUsage({ promptTokens: 10, completionTokens: 20 });
const completion = {
  id: 'gen-1',
  object: 'chat.completion',
  created: 1,
  model: 'o4-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Paris.', reasoning: 'The capital of France…', reasoning_details: [{ type: 'reasoning.text', text: 'The capital…' }] }, finish_reason: 'stop' }],
};
const EXCLUDED = [{ reasoning: { effort: 'high', exclude: true } }, { include_reasoning: false }];

describe('a native chat completion whose client excluded the reasoning', () => {
  it.each(EXCLUDED)('leaves out the message reasoning and its details for %j', (clientBody) => {
    const shown = JSON.parse(presentChatCompletion(JSON.stringify(completion), completion, usage, presentation({ clientBody }))) as typeof completion;
    expect(shown.choices[0]?.message).toEqual({ role: 'assistant', content: 'Paris.' });
  });

  it('passes as the upstream sent it when the client did not exclude it', () => {
    const text = JSON.stringify(completion);
    expect(presentChatCompletion(text, completion, usage, presentation({ clientBody: { reasoning: { effort: 'high' } } }))).toBe(text);
  });
});

/** A native chat stream through the pass-through; what the client receives, and what the end adds. */
async function relay(chunks: unknown[], clientBody: Record<string, unknown>, showUsage = false) {
  const reader = createChatStreamReader();
  const passThrough = createChatPassThrough(presentation({ clientBody, showUsage, finalUsage: async () => usage }));
  const out: string[] = [];
  for (const chunk of chunks) {
    const event = decodeSseEvent(`data: ${JSON.stringify(chunk)}\n\n`);
    out.push(await passThrough.push(event, reader.push(event.payload)));
  }
  return { out, ending: await passThrough.end() };
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ id: 'gen-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });

describe('a native chat stream whose client excluded the reasoning', () => {
  it('sends no reasoning: a chunk of reasoning alone is not sent, one with the role keeps the role, content passes as sent', async () => {
    const { out } = await relay(
      [chunk({ role: 'assistant', reasoning: 'Think', reasoning_content: 'Think' }), chunk({ content: '', reasoning: 'ing…' }), chunk({ content: 'Paris.' }), chunk({}, 'stop')],
      { include_reasoning: false },
    );
    expect(out.map((frame) => (frame ? (JSON.parse(frame.slice(6)) as ReturnType<typeof chunk>).choices[0]?.delta : ''))).toEqual([{ role: 'assistant' }, '', { content: 'Paris.' }, {}]);
    expect(out[2]).toBe(`data: ${JSON.stringify(chunk({ content: 'Paris.' }))}\n\n`);
  });

  it('passes a chunk whose reasoning field is null byte for byte (vLLM and DeepSeek send one with every content delta)', async () => {
    const { out } = await relay([chunk({ content: 'Paris.', reasoning_content: null })], { include_reasoning: false });
    expect(out[0]).toBe(`data: ${JSON.stringify(chunk({ content: 'Paris.', reasoning_content: null }))}\n\n`);
  });
});

describe('a native chat stream whose provider ended it with an error', () => {
  it('adds no usage chunk after the error, the stream\'s last word, though the client asked for usage', async () => {
    const { out, ending } = await relay([chunk({ role: 'assistant', content: 'Par' }), { error: { message: 'The model crashed.', type: 'server_error' } }], {}, true);
    expect(out[1]).toMatch(/^data: \{"error":/);
    expect(ending).toBe('');
  });
});
