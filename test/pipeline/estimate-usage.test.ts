import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  countImageParts,
  createUsageEstimator,
  estimateUsageBound,
  finalUsageOf,
  IMAGE_TOKENS_BOUND,
  namesPromptHeldByProvider,
  REQUEST_OVERHEAD_TOKENS_BOUND,
  TOOLS_OVERHEAD_TOKENS_BOUND,
} from '../../shared/pipeline/estimate-usage.ts';
import { chatPromptText, countTokens } from '../../shared/tokenizer/estimate-tokens.ts';

const chatEstimator = (messages: unknown[]) => createUsageEstimator(() => chatPromptText(messages));

describe('createUsageEstimator', () => {
  it('counts prompt and completion with the o200k_base tokenizer and marks the usage estimated', async () => {
    const estimate = chatEstimator([{ role: 'user', content: 'Hello world, this is a test' }]);
    expect(await estimate({ completionText: 'Hello world, this is a test' })).toEqual({
      promptTokens: 7,
      completionTokens: 7,
      cachedTokens: 0,
      reasoningTokens: 0,
      estimated: true,
    });
  });

  it('counts no completion tokens for no completion text', async () => {
    expect((await chatEstimator([{ role: 'user', content: 'Hi' }])({ completionText: '' })).completionTokens).toBe(0);
  });

  it('counts text parts and tool-call arguments of the prompt', async () => {
    const estimate = chatEstimator([
      { role: 'user', content: [{ type: 'text', text: 'Hello world, this is a test' }, { type: 'image_url', image_url: { url: 'x' } }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] },
    ]);
    // 'Hello world, this is a test' + '\n' + the tool calls as JSON: 33 tokens; the image part counts nothing.
    expect((await estimate({ completionText: '' })).promptTokens).toBe(33);
  });

  it('reads and counts the prompt only once, however often it is asked', async () => {
    let reads = 0;
    const estimate = createUsageEstimator(() => {
      reads += 1;
      return 'Hello world, this is a test';
    });
    const [first, second] = await Promise.all([estimate({ completionText: 'a' }), estimate({ completionText: 'Hello world, this is a test' })]);
    const third = await estimate({ completionText: '' });
    expect(reads).toBe(1);
    expect([first?.promptTokens, second?.promptTokens, third.promptTokens]).toEqual([7, 7, 7]);
    expect(second?.completionTokens).toBe(7);
  });

  it('adds the token ids a prompt sends as they are to the count of its text', async () => {
    const estimate = createUsageEstimator(() => 'Hello world, this is a test', () => 5);
    expect((await estimate({ completionText: '' })).promptTokens).toBe(7 + 5);
  });

  it("keeps an upstream's provisional prompt and cache counts, and the larger of its output placeholder and the count", async () => {
    const estimate = chatEstimator([{ role: 'user', content: 'Hello world, this is a test' }]);
    const provisionalUsage = { promptTokens: 1_000, completionTokens: 1, cachedTokens: 800, cacheWriteTokens: 150, reasoningTokens: 0, estimated: false };
    expect(await estimate({ provisionalUsage, completionText: 'Hello world, this is a test' })).toEqual({
      promptTokens: 1_000,
      completionTokens: 7,
      cachedTokens: 800,
      cacheWriteTokens: 150,
      reasoningTokens: 0,
      estimated: true,
    });
  });
});

describe('finalUsageOf', () => {
  it("takes the upstream's usage when it reported one, and estimates only otherwise", async () => {
    const reported = { promptTokens: 54, completionTokens: 20, cachedTokens: 0, reasoningTokens: 0, estimated: false };
    const estimate = chatEstimator([{ role: 'user', content: 'Hi' }]);
    expect(await finalUsageOf({ usage: reported, completionText: 'x' }, estimate)).toBe(reported);
    expect((await finalUsageOf({ completionText: 'Hello' }, estimate)).estimated).toBe(true);
  });
});

describe('estimateUsageBound', () => {
  it('estimates the prompt at four characters a token for rate limits, and takes the output cap when set', () => {
    const shape = { bodyBytes: 100, images: 0, tools: false };
    expect(estimateUsageBound('x'.repeat(41), 100, shape)).toMatchObject({ promptTokens: 11, outputCap: 100 });
    expect(estimateUsageBound('', undefined, shape)).toMatchObject({ promptTokens: 0, outputCap: undefined });
  });

  it('bounds the prompt by the body bytes, plus a bound per image, for tools and for the chat template', () => {
    expect(estimateUsageBound('', undefined, { bodyBytes: 1_000, images: 2, tools: true }).promptTokensBound).toBe(1_000 + 2 * IMAGE_TOKENS_BOUND + TOOLS_OVERHEAD_TOKENS_BOUND + REQUEST_OVERHEAD_TOKENS_BOUND);
  });

  it('counts one choice unless the endpoint says the request has more generated', () => {
    const shape = { bodyBytes: 100, images: 0, tools: false };
    expect(estimateUsageBound('', 100, shape).choices).toBe(1);
    expect(estimateUsageBound('', 100, { ...shape, generations: { prompts: 1, choices: 128 } })).toMatchObject({ outputCap: 100, choices: 128 });
  });

  it("adds the provider's overhead once per prompt of a request that lists several, and the prompts' bytes once", () => {
    const bound = estimateUsageBound('', 100, { bodyBytes: 1_000, images: 0, tools: false, generations: { prompts: 3, choices: 6 } }).promptTokensBound;
    expect(bound).toBe(1_000 + 3 * REQUEST_OVERHEAD_TOKENS_BOUND);
  });
});

describe('countImageParts', () => {
  it('walks an input of a million token ids as a list, not a stack of calls that overflows', () => {
    expect(countImageParts({ model: 'e', input: Array.from({ length: 1_000_000 }, (_, index) => index % 50_000) })).toBe(0);
    expect(namesPromptHeldByProvider({ model: 'e', input: Array.from({ length: 1_000_000 }, () => 7) })).toBe(false);
  });

  it('counts image parts of every protocol, wherever they stand', () => {
    const body = {
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'https://x/a.png' } }] },
        { role: 'user', content: [{ type: 'tool_result', content: [{ type: 'image', source: { type: 'url', url: 'https://x/b.png' } }] }] },
      ],
      input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://x/c.png' }] }],
    };
    expect(countImageParts(body)).toBe(3);
  });
});

describe('namesPromptHeldByProvider', () => {
  it('finds prompt the provider holds or fetches, which the body’s bytes do not bound, in every protocol', () => {
    expect(namesPromptHeldByProvider({ input: 'more', previous_response_id: 'resp_1' })).toBe(true);
    expect(namesPromptHeldByProvider({ input: 'more', conversation: 'conv_1' })).toBe(true);
    expect(namesPromptHeldByProvider({ prompt: { id: 'pmpt_1', version: '2' } })).toBe(true);
    expect(namesPromptHeldByProvider({ input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-1' }] }] })).toBe(true);
    expect(namesPromptHeldByProvider({ input: [{ role: 'user', content: [{ type: 'input_file', file_url: 'https://x/a.pdf' }] }] })).toBe(true);
    expect(namesPromptHeldByProvider({ messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-1' } }] }] })).toBe(true);
    expect(namesPromptHeldByProvider({ messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'file', file_id: 'file_011' } }] }] })).toBe(true);
    expect(namesPromptHeldByProvider({ messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'url', url: 'https://x/a.pdf' } }] }] })).toBe(true);
    expect(namesPromptHeldByProvider({ messages: [], tools: [{ type: 'web_fetch_20250910', name: 'web_fetch' }] })).toBe(true);
    expect(namesPromptHeldByProvider({ input: 'x', tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }] })).toBe(true);
    expect(namesPromptHeldByProvider({ input: 'x', tools: [{ type: 'mcp', server_label: 'docs', server_url: 'https://x/mcp' }] })).toBe(true);
    expect(namesPromptHeldByProvider({ messages: [], mcp_servers: [{ type: 'url', url: 'https://x/mcp', name: 'docs' }] })).toBe(true);
    expect(namesPromptHeldByProvider({ input: [{ type: 'item_reference', id: 'msg_123' }] })).toBe(true);
    expect(namesPromptHeldByProvider({ messages: [{ role: 'user', content: [{ type: 'container_upload', file_id: 'file_011' }] }] })).toBe(true);
  });

  it('finds none in a request that holds its whole prompt: a legacy completion’s prompt text, a tool call whose input names a file_id', () => {
    expect(namesPromptHeldByProvider({ prompt: 'Say this is a test' })).toBe(false);
    const driveCall = { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'open', input: { file_id: 'abc' } }] };
    expect(namesPromptHeldByProvider({ messages: [{ role: 'user', content: 'open it' }, driveCall, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] }] })).toBe(false);
    expect(namesPromptHeldByProvider({ input: [{ type: 'function_call', call_id: 'c', name: 'open', arguments: '{"file_id":"abc"}' }] })).toBe(false);
    expect(namesPromptHeldByProvider({ messages: [{ role: 'user', content: 'what is a file_id?' }] })).toBe(false);
    // Web search is bounded apart, by its searches; a function tool named like a hosted one is the client's own.
    expect(namesPromptHeldByProvider({ input: 'x', tools: [{ type: 'web_search' }, { type: 'function', name: 'mcp' }] })).toBe(false);
  });
});

const word = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.constantFrom('function', ' the', '🎉🎉', '你好世界', '\n\n', '{"a":1}', 'ZZZZZZZZ'));
const text = fc.array(word, { maxLength: 40 }).map((words) => words.join(' '));
const toolCall = fc.record({ id: fc.stringMatching(/^call_[a-z0-9]{4,12}$/), type: fc.constant('function'), function: fc.record({ name: fc.stringMatching(/^[a-z_]{1,16}$/), arguments: text.map((value) => JSON.stringify({ value })) }) });
const message = fc.oneof(
  fc.record({ role: fc.constantFrom('system', 'user', 'assistant'), content: text }),
  fc.record({ role: fc.constant('user'), content: fc.array(fc.record({ type: fc.constant('text'), text }), { minLength: 1, maxLength: 3 }) }),
  fc.record({ role: fc.constant('assistant'), content: fc.constant(null), tool_calls: fc.array(toolCall, { minLength: 1, maxLength: 3 }) }),
  fc.record({ role: fc.constant('tool'), tool_call_id: fc.string({ maxLength: 12 }), content: text }),
);
const tool = fc.record({ type: fc.constant('function'), function: fc.record({ name: fc.stringMatching(/^[a-z_]{1,16}$/), description: text, parameters: fc.constant({ type: 'object', properties: { q: { type: 'string' } } }) }) });

describe('the prompt bound, against the tokenizer', () => {
  it('is never below what a provider counts for a conversation: its text and tool definitions, plus a few tokens per message', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 8 }), fc.array(tool, { maxLength: 3 }), async (messages, tools) => {
        const body = JSON.stringify({ model: 'openai/gpt-4o-mini', messages, ...(tools.length > 0 ? { tools } : {}) });
        const bound = estimateUsageBound(chatPromptText(messages), undefined, { bodyBytes: Buffer.byteLength(body), images: 0, tools: tools.length > 0 }).promptTokensBound;
        // OpenAI's accounting: the text of every message and tool definition, 4 tokens of framing per message, 3 to prime the reply.
        const billed = (await countTokens(chatPromptText(messages))) + (await countTokens(JSON.stringify(tools))) + 4 * messages.length + 3;
        expect(bound).toBeGreaterThanOrEqual(billed);
      }),
      { numRuns: 150 },
    );
  });
});
