import { z } from 'zod';
import type { UpstreamFetch } from '../core/ports.ts';
import { MOCK_BASE_URL } from '../core/provider-catalog.ts';

/**
 * The built-in offline provider. It speaks the OpenAI chat wire format, answers deterministically
 * (it repeats the last user message), streams word by word, and reports usage, so the whole gateway
 * can be tried without any provider account. It never calls the network.
 */

const mockRequestSchema = z.looseObject({
  model: z.string(),
  messages: z.array(z.looseObject({ role: z.string(), content: z.unknown() })),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
});
type MockRequest = z.infer<typeof mockRequestSchema>;

const encoder = new TextEncoder();

export interface MockProviderOptions {
  /** Pause between streamed words, so streaming can be seen. */
  wordDelayMs: number;
  /** Milliseconds since the epoch (the `created` field is derived from it). */
  now: () => number;
}

export function createMockProviderFetch(options: MockProviderOptions): UpstreamFetch {
  return async (url, init) => {
    if (url !== `${MOCK_BASE_URL}/chat/completions` || init.method !== 'POST') {
      return errorResponse(404, `The offline mock provider serves only POST /chat/completions, not ${url}.`);
    }
    let body: unknown;
    try {
      body = JSON.parse(String(init.body));
    } catch {
      return errorResponse(400, 'The offline mock provider needs a JSON body.');
    }
    const parsed = mockRequestSchema.safeParse(body);
    if (!parsed.success) return errorResponse(400, 'The offline mock provider needs "model" and "messages".');
    const request = parsed.data;
    const reply = composeReply(request);
    const usage = {
      prompt_tokens: estimateTokens(JSON.stringify(request.messages)),
      completion_tokens: estimateTokens(reply),
    };
    const fullUsage = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
    const id = `chatcmpl-mock-${hashText(JSON.stringify(request.messages))}`;
    const created = Math.floor(options.now() / 1000);
    if (request.stream) {
      const includeUsage = request.stream_options?.include_usage === true;
      return new Response(streamReply({ id, created, model: request.model, reply, usage: includeUsage ? fullUsage : undefined }, options, init.signal), {
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
      });
    }
    return Response.json({
      id,
      object: 'chat.completion',
      created,
      model: request.model,
      choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop', logprobs: null }],
      usage: fullUsage,
    });
  };
}

function composeReply(request: MockRequest): string {
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
  const said = lastUser ? textOf(lastUser.content) : '';
  return `[offline mock ${request.model}] You said: ${said || '(nothing)'}`;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) => (typeof part === 'object' && part !== null && 'text' in part ? String(part.text) : ''))
      .join(' ');
  }
  return '';
}

/** About four characters a token, as a rule of thumb; deterministic, which is all the mock needs. */
function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function hashText(text: string): string {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

interface StreamPlan {
  id: string;
  created: number;
  model: string;
  reply: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | undefined;
}

function streamReply(plan: StreamPlan, options: MockProviderOptions, signal: AbortSignal | null | undefined): ReadableStream<Uint8Array> {
  const chunk = (delta: object, finishReason: string | null) => ({
    id: plan.id,
    object: 'chat.completion.chunk',
    created: plan.created,
    model: plan.model,
    choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
  });
  const words = plan.reply.split(/(?<= )/);
  const frames: object[] = [
    chunk({ role: 'assistant', content: '' }, null),
    ...words.map((word) => chunk({ content: word }, null)),
    chunk({}, 'stop'),
  ];
  if (plan.usage) {
    frames.push({ id: plan.id, object: 'chat.completion.chunk', created: plan.created, model: plan.model, choices: [], usage: plan.usage });
  }
  let next = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (signal?.aborted) return controller.close();
      if (next > 0 && next <= words.length) await new Promise((resolve) => setTimeout(resolve, options.wordDelayMs));
      const frame = frames[next++];
      if (frame) controller.enqueue(encoder.encode(`data: ${JSON.stringify(frame)}\n\n`));
      else {
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
        controller.close();
      }
    },
  });
}

function errorResponse(status: number, message: string): Response {
  return Response.json({ error: { message, type: 'invalid_request_error', code: null, param: null } }, { status });
}

/** Sends `mock://` URLs to the offline provider and everything else to the real network. */
export function withMockProvider(realFetch: UpstreamFetch, mockFetch: UpstreamFetch): UpstreamFetch {
  return (url, init) => (url.startsWith('mock://') ? mockFetch(url, init) : realFetch(url, init));
}
