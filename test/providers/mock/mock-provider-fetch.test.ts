import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { UpstreamFetch } from '../../../shared/core/ports.ts';
import { createMockProviderFetch, withMockProvider } from '../../../shared/providers/mock/mock-provider-fetch.ts';

const URL_ = 'mock://offline/v1/chat/completions';
const NOW_MS = 1_700_000_000_123;
const mock = createMockProviderFetch({ wordDelayMs: 0, now: () => NOW_MS });

function post(body: unknown, init: Partial<RequestInit> = {}): Promise<Response> {
  return mock(URL_, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), ...init });
}

const hello = { model: 'echo', messages: [{ role: 'user', content: 'Hello there' }] };

/** The `data:` payloads of an SSE body, in order; fails on anything that is not a complete data frame. */
async function sseData(response: Response): Promise<string[]> {
  const text = await response.text();
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((frame) => {
      expect(frame.startsWith('data: ')).toBe(true);
      return frame.slice('data: '.length);
    });
}

interface Chunk {
  id: string;
  object: string;
  created: number;
  model: string;
  choices: Array<{ index: number; delta: { role?: string; content?: string }; finish_reason: string | null }>;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

describe('createMockProviderFetch', () => {
  it('answers a chat completion with the last user message and usage, as OpenAI JSON', async () => {
    const response = await post(hello);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    // prompt: JSON of the messages is 41 characters → 11 tokens; reply: 41 characters → 11 tokens.
    expect(await response.json()).toEqual({
      id: 'chatcmpl-mock-f0ebefdb',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'echo',
      choices: [
        { index: 0, message: { role: 'assistant', content: '[offline mock echo] You said: Hello there' }, finish_reason: 'stop', logprobs: null },
      ],
      usage: { prompt_tokens: 11, completion_tokens: 11, total_tokens: 22 },
    });
  });

  it('answers the same request the same way every time', async () => {
    expect(await (await post(hello)).text()).toBe(await (await post(hello)).text());
  });

  it('gives different conversations different ids', async () => {
    const other = await (await post({ ...hello, messages: [{ role: 'user', content: 'Goodbye' }] })).json();
    expect(other).toMatchObject({ id: expect.stringMatching(/^chatcmpl-mock-[0-9a-f]{8}$/) });
    expect(other).not.toMatchObject({ id: 'chatcmpl-mock-f0ebefdb' });
  });

  it('repeats the last user message, joining text parts and ignoring other roles', async () => {
    const body = await (
      await post({
        model: 'm',
        messages: [
          { role: 'user', content: 'first' },
          { role: 'user', content: [{ type: 'text', text: 'part one' }, { type: 'image_url', image_url: {} }, { type: 'text', text: 'two' }] },
          { role: 'assistant', content: 'ignored' },
        ],
      })
    ).json();
    expect(body).toMatchObject({ choices: [{ message: { content: '[offline mock m] You said: part one  two' } }] });
  });

  it('says "(nothing)" when there is no user message', async () => {
    const body = await (await post({ model: 'm', messages: [{ role: 'system', content: 'be brief' }] })).json();
    expect(body).toMatchObject({ choices: [{ message: { content: '[offline mock m] You said: (nothing)' } }] });
  });

  it('streams valid OpenAI SSE whose deltas spell the same reply and that ends with data: [DONE]', async () => {
    const response = await post({ ...hello, stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const data = await sseData(response);
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((payload) => JSON.parse(payload) as Chunk);
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({ id: 'chatcmpl-mock-f0ebefdb', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'echo' });
    }
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '' });
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('[offline mock echo] You said: Hello there');
    expect(chunks.at(-1)?.choices[0]).toEqual({ index: 0, delta: {}, finish_reason: 'stop', logprobs: null });
    expect(chunks.some((chunk) => 'usage' in chunk)).toBe(false);
  });

  it('streams word by word', async () => {
    const data = await sseData(await post({ model: 'm', messages: [{ role: 'user', content: 'a b' }], stream: true }));
    const contents = data.slice(1, -2).map((payload) => (JSON.parse(payload) as Chunk).choices[0]?.delta.content);
    expect(contents).toEqual(['[offline ', 'mock ', 'm] ', 'You ', 'said: ', 'a ', 'b']);
  });

  it('adds a usage chunk before [DONE] only when stream_options.include_usage is true', async () => {
    const data = await sseData(await post({ ...hello, stream: true, stream_options: { include_usage: true } }));
    expect(data.at(-1)).toBe('[DONE]');
    const usageChunk = JSON.parse(data.at(-2) ?? '') as Chunk;
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage).toEqual({ prompt_tokens: 11, completion_tokens: 11, total_tokens: 22 });

    const without = await sseData(await post({ ...hello, stream: true, stream_options: { include_usage: false } }));
    expect(without).toHaveLength(data.length - 1);
    expect(without.join('\n')).not.toContain('"usage"');
  });

  it('stops streaming without [DONE] once the request is aborted', async () => {
    const abort = new AbortController();
    const response = await post({ ...hello, stream: true }, { signal: abort.signal });
    abort.abort();
    const text = await response.text();
    expect(text).not.toContain('[DONE]');
    expect(text).not.toContain('Hello');
  });

  it.each([
    ['another path', 'mock://offline/v1/embeddings', 'POST'],
    ['another method', URL_, 'GET'],
    ['another host', 'mock://elsewhere/v1/chat/completions', 'POST'],
  ])('answers 404 for %s', async (_what, url, method) => {
    const response = await mock(url, { method, body: JSON.stringify(hello) });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: {
        message: `The offline mock provider serves only POST /chat/completions, not ${url}.`,
        type: 'invalid_request_error',
        code: null,
        param: null,
      },
    });
  });

  it('answers 400 naming the field it cannot read', async () => {
    const response = await post({ model: 'echo' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { message: expect.stringContaining('cannot read "messages"') } });
    const badTools = await post({ ...hello, tools: 'x' });
    expect(await badTools.json()).toMatchObject({ error: { message: expect.stringContaining('cannot read "tools"') } });
  });

  it('gives each of n choices the answer, streamed or not, and counts their output n times', async () => {
    const json = (await (await post({ ...hello, n: 2 })).json()) as { choices: Array<{ index: number; message: { content: string } }>; usage: { completion_tokens: number } };
    expect(json.choices.map((choice) => choice.index)).toEqual([0, 1]);
    expect(json.choices[1]?.message.content).toBe(json.choices[0]?.message.content);
    const single = (await (await post(hello)).json()) as { usage: { completion_tokens: number } };
    expect(json.usage.completion_tokens).toBe(2 * single.usage.completion_tokens);
    const client = new OpenAI({ apiKey: 'unused', baseURL: 'mock://offline/v1', fetch: (url, init) => mock(String(url), init ?? {}) });
    const stream = client.chat.completions.stream({ model: 'echo', messages: hello.messages as never, n: 2 });
    const done = await stream.finalChatCompletion();
    expect(done.choices.map((choice) => choice.message.content)).toEqual([json.choices[0]?.message.content, json.choices[0]?.message.content]);
  });
});

describe('withMockProvider', () => {
  function recorder(name: string, log: string[]): UpstreamFetch {
    return async (url) => {
      log.push(`${name} ${url}`);
      return new Response(name);
    };
  }

  it('sends mock:// URLs to the mock and everything else to the real fetch', async () => {
    const log: string[] = [];
    const fetch = withMockProvider(recorder('real', log), recorder('mock', log));
    expect(await (await fetch('mock://offline/v1/chat/completions', { method: 'POST' })).text()).toBe('mock');
    expect(await (await fetch('https://api.openai.com/v1/chat/completions', { method: 'POST' })).text()).toBe('real');
    expect(await (await fetch('http://mock.example/v1', { method: 'POST' })).text()).toBe('real');
    expect(log).toEqual([
      'mock mock://offline/v1/chat/completions',
      'real https://api.openai.com/v1/chat/completions',
      'real http://mock.example/v1',
    ]);
  });

  it('passes the request init through untouched', async () => {
    const seen: RequestInit[] = [];
    const capture: UpstreamFetch = async (_url, init) => {
      seen.push(init);
      return new Response('');
    };
    const init: RequestInit = { method: 'POST', body: '{}', headers: { a: 'b' } };
    await withMockProvider(capture, capture)('mock://offline/v1/chat/completions', init);
    await withMockProvider(capture, capture)('https://x.example', init);
    expect(seen).toEqual([init, init]);
    expect(seen[0]).toBe(init);
  });
});

describe('createMockProviderFetch with tools, read by the openai SDK', () => {
  const sdk = new OpenAI({
    apiKey: 'sk-unused',
    baseURL: 'http://mock.test/v1',
    maxRetries: 0,
    fetch: (url, init) => mock(String(url).replace('http://mock.test/v1', 'mock://offline/v1'), init ?? {}),
  });
  const tools = [
    { type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
  ];
  const messages = [{ role: 'user' as const, content: 'Call get_weather {"city": "Reykjavík, Ísland 🌋"}' }];

  it('answers a tool call in OpenAI chat JSON, finish_reason tool_calls', async () => {
    const completion = await sdk.chat.completions.create({ model: 'echo', tools, messages });
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    expect(choice?.message.tool_calls).toEqual([
      { id: expect.stringMatching(/^call_mock_[0-9a-f]{8}$/), type: 'function', function: { name: 'get_weather', arguments: '{"city":"Reykjavík, Ísland 🌋"}' } },
    ]);
    expect(completion.usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('streams the same call in pieces the SDK puts back together, then a usage chunk when asked', async () => {
    const whole = await sdk.chat.completions.create({ model: 'echo', tools, messages });
    const stream = sdk.chat.completions.stream({ model: 'echo', tools, messages, stream_options: { include_usage: true } });
    let argumentPieces = 0;
    for await (const chunk of stream) if (chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments) argumentPieces += 1;
    const streamed = await stream.finalChatCompletion();

    expect(argumentPieces).toBeGreaterThan(1);
    expect(streamed.choices[0]?.finish_reason).toBe('tool_calls');
    expect(streamed.choices[0]?.message.tool_calls).toEqual(whole.choices[0]?.message.tool_calls);
    expect(streamed.usage).toEqual(whole.usage);
  });
});
