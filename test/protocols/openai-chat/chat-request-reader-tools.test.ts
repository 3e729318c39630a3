import { describe, expect, it } from 'vitest';
import { readChatRequest } from '../../../shared/protocols/openai-chat/chat-request-reader.ts';

const body = (tools: unknown[]) => ({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], tools });

describe('the tools of a chat request read for translation', () => {
  it("refuses a function tool without its function as OpenAI does, naming the field, rather than leave the client's tool out", () => {
    expect(() => readChatRequest(body([{ type: 'function', function: { name: 'f' } }, { type: 'function' }]))).toThrow(
      expect.objectContaining({ status: 400, param: 'tools[1].function', message: "Missing required parameter: 'tools[1].function'." }),
    );
  });

  it('refuses a custom tool without its name', () => {
    expect(() => readChatRequest(body([{ type: 'custom', custom: {} }]))).toThrow(expect.objectContaining({ status: 400, param: 'tools.0.custom.name' }));
  });

  it('reads whole tools, and names a tool of a type it cannot carry as dropped', () => {
    const read = readChatRequest(body([{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }, { type: 'file_search' }]));
    expect(read.tools).toEqual([{ name: 'lookup', parameters: { type: 'object' } }]);
  });
});
