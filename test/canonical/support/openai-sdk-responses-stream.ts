import OpenAI from 'openai';

/**
 * Reads Responses SSE frames with the official OpenAI SDK (`responses.stream`), as a client of the gateway
 * would: the frames are the body of the one response its injected fetch returns. The SDK's accumulator
 * checks output indexes, item ids, content and summary indexes, call ids and the lifecycle events, so a
 * malformed stream fails here; an `error` event rejects with the APIError the SDK makes of it.
 */
export async function readResponsesStreamWithOpenAiSdk(frames: string[] | string, { parseArguments = true } = {}) {
  const body = typeof frames === 'string' ? frames : frames.join('');
  const client = new OpenAI({
    apiKey: 'sk-test',
    baseURL: 'http://gateway.test/v1',
    maxRetries: 0,
    fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  });
  const stream = client.responses.stream({ model: 'client-model', input: 'hello' });
  const events: OpenAI.Responses.ResponseStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  const response = await stream.finalResponse();
  return { events, response, ...summarizeResponse(response, { parseArguments }) };
}

/** What a response says: its text, reasoning summaries, calls (function arguments parsed unless told not to), status and usage. */
export function summarizeResponse(response: OpenAI.Responses.Response, { parseArguments = true } = {}) {
  const text: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: Array<{ id: string; name: string; input: unknown; custom?: true }> = [];
  const encrypted: string[] = [];
  for (const item of response.output) {
    if (item.type === 'message') for (const part of item.content) text.push(part.type === 'output_text' ? part.text : part.refusal);
    if (item.type === 'reasoning') {
      reasoning.push(item.summary.map((part) => part.text).join('\n\n'));
      if (item.encrypted_content) encrypted.push(item.encrypted_content);
    }
    if (item.type === 'function_call') toolCalls.push({ id: item.call_id, name: item.name, input: parseArguments ? (JSON.parse(item.arguments) as unknown) : item.arguments });
    if (item.type === 'custom_tool_call') toolCalls.push({ id: item.call_id, name: item.name, input: item.input, custom: true });
  }
  return {
    text: text.join(''),
    reasoning: reasoning.join(''),
    encrypted,
    toolCalls,
    status: response.status,
    incompleteReason: response.incomplete_details?.reason,
    usage: response.usage,
  };
}
