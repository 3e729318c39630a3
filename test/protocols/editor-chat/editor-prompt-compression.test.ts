import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withoutGatewayFields } from '../../../shared/pipeline/generation-endpoint.ts';
import { parseEditorRequest } from '../../../shared/protocols/editor-chat/editor-request.ts';
import { writeEditorResponsesBody } from '../../../shared/protocols/editor-chat/editor-responses-rewrite.ts';
import {
  compactPromptText,
  MCP_INSTRUCTIONS_MAX_CHARS,
  MCP_TOOL_DESCRIPTION_MAX_CHARS,
  shortenText,
  type TextCompaction,
} from '../../../shared/protocols/editor-chat/editor-prompt-compression.ts';
import { cursorResponsesBody, LONG_SERVER_INSTRUCTIONS, MCP_BLOCK, TOOL_TURN_ITEMS } from './cursor-bodies.ts';

const upstreamJson = (body: unknown) => JSON.stringify(writeEditorResponsesBody(withoutGatewayFields(parseEditorRequest(JSON.stringify(body))), 'gpt-5.4'));

describe('shortenText', () => {
  it('keeps a text within the limit as it is', () => {
    expect(shortenText('Search the docs.', 300)).toBe('Search the docs.');
  });

  it('cuts a longer text at a word boundary within the limit, marked as shortened', () => {
    const shortened = shortenText(LONG_SERVER_INSTRUCTIONS, 120);
    expect(shortened.length).toBeLessThanOrEqual(120);
    expect(shortened).toMatch(/ \[…\]$/);
    expect(LONG_SERVER_INSTRUCTIONS.startsWith(shortened.slice(0, -' […]'.length))).toBe(true);
    expect(shortened.slice(0, -' […]'.length)).toMatch(/\S$/);
  });

  it('never cuts an XML entity in half', () => {
    const text = `${'word '.repeat(10)}&quot;search_issues&quot; and more words after the entity`;
    for (let max = 20; max < text.length; max += 1) expect(shortenText(text, max), String(max)).not.toMatch(/&[#0-9A-Za-z]*( \[…\])$/);
  });

  it('is a pure function of its input, and shortening twice changes nothing more', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), fc.integer({ min: 10, max: 400 }), (text, max) => {
        const once = shortenText(text, max);
        expect(shortenText(text, max)).toBe(once);
        expect(shortenText(once, max)).toBe(once);
        expect(once.length).toBeLessThanOrEqual(Math.max(max, text.length <= max ? text.length : max));
      }),
    );
  });
});

describe('compactPromptText', () => {
  it('shortens each MCP server’s instructions, keeping its name, folder and the rest of the block byte for byte', () => {
    const compaction: TextCompaction[] = [];
    const compacted = compactPromptText(MCP_BLOCK, compaction);
    const shortened = shortenText(LONG_SERVER_INSTRUCTIONS, MCP_INSTRUCTIONS_MAX_CHARS);
    expect(compacted).toBe(MCP_BLOCK.replace(LONG_SERVER_INSTRUCTIONS, shortened));
    expect(compaction).toEqual([{ before: LONG_SERVER_INSTRUCTIONS, after: shortened }]);
  });

  it('never changes a <user_query>, even one that holds an MCP block', () => {
    const pasted = `<user_query>\nwhy does this fail?\n${MCP_BLOCK}\n</user_query>`;
    const text = `${MCP_BLOCK}\n<timestamp>now</timestamp>\n${pasted}\n<most_important_user_query>${MCP_BLOCK}</most_important_user_query>`;
    const compacted = compactPromptText(text, []);
    expect(compacted).toContain(pasted);
    expect(compacted).toContain(`<most_important_user_query>${MCP_BLOCK}</most_important_user_query>`);
    expect(compacted.startsWith(MCP_BLOCK)).toBe(false);
  });

  it('leaves a text without MCP blocks as it is', () => {
    const compaction: TextCompaction[] = [];
    expect(compactPromptText('<user_info>OS: linux</user_info>', compaction)).toBe('<user_info>OS: linux</user_info>');
    expect(compaction).toEqual([]);
  });
});

describe('prompt compression across the turns of a conversation', () => {
  it('gives the same input the same bytes upstream', () => {
    expect(upstreamJson(cursorResponsesBody())).toBe(upstreamJson(cursorResponsesBody()));
  });

  it('keeps the upstream prompt of turn 1 as the byte-identical prefix of turn 2, so the prompt cache keeps hitting', () => {
    const turn1 = JSON.parse(upstreamJson(cursorResponsesBody('fix the bug'))) as { input: unknown[]; tools: unknown[] };
    const turn2Body = cursorResponsesBody('fix the bug', [
      ...TOOL_TURN_ITEMS,
      { role: 'user', content: [{ type: 'input_text', text: '<user_query>\nnow run the tests\n</user_query>' }] },
    ]);
    const turn2 = JSON.parse(upstreamJson(turn2Body)) as { input: unknown[]; tools: unknown[] };
    expect(JSON.stringify(turn2.tools)).toBe(JSON.stringify(turn1.tools));
    expect(JSON.stringify(turn2.input.slice(0, turn1.input.length))).toBe(JSON.stringify(turn1.input));
    expect(JSON.stringify(turn2.input)).toContain('now run the tests');
    expect(JSON.stringify(turn2.input)).toContain('"call_id":"call_2"');
  });

  it('shortens the descriptions of legacy mcp_* tools, and no other tool’s', () => {
    const long = `Creates an issue. ${'It takes a title, a body and labels. '.repeat(20)}`;
    const body = {
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [
        { type: 'function', function: { name: 'mcp_tracker_create_issue', description: long, parameters: { type: 'object', properties: {} } } },
        { type: 'function', function: { name: 'edit_file', description: long, parameters: { type: 'object', properties: {} } } },
      ],
    };
    const { tools } = JSON.parse(upstreamJson(body)) as { tools: Array<{ description: string }> };
    expect(tools[0]?.description).toBe(shortenText(long, MCP_TOOL_DESCRIPTION_MAX_CHARS));
    expect(tools[1]?.description).toBe(long);
  });
});
