import type { UpstreamFetch } from '../../core/ports.ts';
import { MOCK_BASE_URL } from '../../core/provider-catalog.ts';
import { mockChatCompletion, type MockAnswer } from './mock-chat-completion.ts';
import { mockStreamFrames, streamMockFrames } from './mock-chat-stream.ts';
import { composeMockReply } from './mock-reply.ts';
import { mockRequestSchema } from './mock-request.ts';

/**
 * The built-in offline provider. It speaks the OpenAI chat wire format, answers deterministically (it
 * repeats the last user message, or calls the tool the user asks for: see composeMockReply), streams, and
 * reports usage, so the whole gateway, agents included, can be tried without any provider account. It
 * never calls the network.
 */
export interface MockProviderOptions {
  /** Pause between streamed chunks, so streaming can be seen. */
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
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return errorResponse(400, `The offline mock provider cannot read "${issue?.path.join('.') || 'body'}": ${issue?.message ?? 'invalid value'}.`);
    }
    const request = parsed.data;
    const choices = request.n ?? 1;
    const reply = composeMockReply(request);
    const conversation = hashText(JSON.stringify(request.messages));
    const prompt = estimateTokens(JSON.stringify(request.messages));
    const completion = estimateTokens(reply.kind === 'text' ? reply.text : `${reply.name}${reply.arguments}`);
    const answer: MockAnswer = {
      id: `chatcmpl-mock-${conversation}`,
      created: Math.floor(options.now() / 1000),
      model: request.model,
      reply,
      choices,
      toolCallId: `call_mock_${conversation}`,
      usage: { prompt_tokens: prompt, completion_tokens: completion * choices, total_tokens: prompt + completion * choices },
    };
    if (!request.stream) return Response.json(mockChatCompletion(answer));
    const frames = mockStreamFrames(answer, request.stream_options?.include_usage === true);
    return new Response(streamMockFrames(frames, options.wordDelayMs, init.signal), {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
    });
  };
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

function errorResponse(status: number, message: string): Response {
  return Response.json({ error: { message, type: 'invalid_request_error', code: null, param: null } }, { status });
}

export { withMockProvider } from './with-mock-provider.ts';
