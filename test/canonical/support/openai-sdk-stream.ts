import OpenAI from 'openai';

/**
 * Reads chat SSE frames with the official OpenAI SDK (`chat.completions.stream`), as a client of the
 * gateway would: the frames are the body of the one response its injected fetch returns. The SDK checks
 * tool-call indexes and identities and requires a finish_reason, so malformed streams fail here. Function
 * arguments are parsed as JSON unless told not to (the editor's ApplyPatch calls carry raw patch text).
 */
export async function readChatStreamWithOpenAiSdk(frames: string[], { parseArguments = true } = {}) {
  const body = frames.join('');
  const client = new OpenAI({
    apiKey: 'sk-test',
    baseURL: 'http://gateway.test/v1',
    maxRetries: 0,
    fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  });
  const stream = client.chat.completions.stream({
    model: 'client-model',
    messages: [{ role: 'user', content: 'hello' }],
    stream_options: { include_usage: true },
  });
  const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  const completion = await stream.finalChatCompletion();
  const choice = completion.choices[0];
  return {
    chunks,
    completion,
    text: choice?.message.content ?? '',
    reasoning: chunks.map((chunk) => (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? '').join(''),
    toolCalls: (choice?.message.tool_calls ?? []).map((call) =>
      call.type === 'custom'
        ? { id: call.id, name: call.custom.name, input: call.custom.input, custom: true }
        : { id: call.id, name: call.function.name, input: parseArguments ? (JSON.parse(call.function.arguments) as unknown) : call.function.arguments },
    ),
    finishReason: choice?.finish_reason,
    usage: completion.usage,
  };
}

/** The parsed payloads of chat frames (`[DONE]` left out), checking each frame is `data: …\n\n`. */
export function chatFramePayloads(frames: string[]): Array<Record<string, unknown>> {
  return frames
    .map((frame) => {
      if (!/^data: .*\n\n$/s.test(frame)) throw new Error(`not a data frame: ${JSON.stringify(frame)}`);
      return frame.slice('data: '.length, -2);
    })
    .filter((data) => data !== '[DONE]')
    .map((data) => JSON.parse(data) as Record<string, unknown>);
}
