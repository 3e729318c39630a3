import type { ServerResponse } from 'node:http';
import { sendJson, sendSse, sseEvents, type ReceivedRequest } from './fake-openai-upstream.ts';
import { readFixture } from './fixtures.ts';

type Block = { type?: string; text?: string; content?: unknown; name?: string };
type Message = { role?: string; content?: string | Block[] };

/** The JSON of an SSE event's data line, edited, with the event's other lines as they were. */
function editData(event: string, edit: (data: Record<string, unknown>) => void): string {
  return event.replace(/^data: (.*)$/m, (_line, json: string) => {
    const data = JSON.parse(json) as Record<string, unknown>;
    edit(data);
    return `data: ${JSON.stringify(data)}`;
  });
}

/** The recorded tool-use stream, asking for `tool` with `input` instead of what it asked for. */
function toolUseStream(tool: string, input: Record<string, unknown>): string[] {
  return sseEvents(readFixture('anthropic/messages-stream-tool-use-input-json-delta.sse')).map((event) =>
    editData(event, (data) => {
      const block = data.content_block as Block | undefined;
      if (data.type === 'content_block_start' && block) block.name = tool;
      const delta = data.delta as { type?: string; partial_json?: string } | undefined;
      // The recorded input arrives in three pieces; here all of it comes in the first and the others are empty.
      if (delta?.type === 'input_json_delta') delta.partial_json = delta.partial_json === '' ? JSON.stringify(input) : '';
    }),
  );
}

/** The recorded text stream, saying `text`. */
function textStream(text: string): string[] {
  return sseEvents(readFixture('anthropic/messages-stream-text.sse')).map((event) =>
    editData(event, (data) => {
      const delta = data.delta as { type?: string; text?: string } | undefined;
      if (delta?.type === 'text_delta') delta.text = text;
    }),
  );
}

/** The first text of a tool result (Claude Code appends more blocks: resource links, reminders). */
function firstTextOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return (content as Block[]).find((block) => block.type === 'text')?.text ?? '';
  return '';
}

/**
 * A model behind a fake Anthropic upstream that asks for one tool: offered a tool whose name ends with
 * `toolSuffix`, it calls it with `input`; given the tool's result, it answers "Tool result: <the result's first text>".
 * Every other request (titles, checks) gets the recorded "Hello".
 */
export function toolCallingModel(toolSuffix: string, input: Record<string, unknown>) {
  return (request: ReceivedRequest, response: ServerResponse): void | Promise<void> => {
    if (request.path.startsWith('/v1/messages/count_tokens')) return sendJson(response, 200, readFixture('anthropic/count-tokens.json'));
    if (request.body.stream !== true) return sendJson(response, 200, readFixture('anthropic/messages-nonstream-text.json'));
    const tools = (request.body.tools ?? []) as Array<{ name?: string }>;
    const messages = (request.body.messages ?? []) as Message[];
    const last = messages.at(-1);
    const toolResult = Array.isArray(last?.content) ? last.content.find((block) => block.type === 'tool_result') : undefined;
    const tool = tools.find((candidate) => candidate.name?.endsWith(toolSuffix));
    if (toolResult) return sendSse(response, textStream(`Tool result: ${firstTextOf(toolResult.content)}`));
    if (tool?.name) return sendSse(response, toolUseStream(tool.name, input));
    return sendSse(response, textStream('Hello'));
  };
}
