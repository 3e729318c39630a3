import { describe, expect, it } from 'vitest';
import { anthropicMessagesProtocol } from '../../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { bedrockConverseProtocol } from '../../../shared/protocols/bedrock-converse/bedrock-converse-protocol.ts';
import { NO_EXTRA_FEATURES } from '../../support/upstream-features.ts';

const NOVA = 'amazon.nova-pro-v1:0';
const CLAUDE_PROFILE = 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc';
const ephemeral = { type: 'ephemeral' } as const;
const cachePoint = { cachePoint: { type: 'default' } };

/** A Messages body as Converse receives it for a model. */
function toConverse(body: Record<string, unknown>, upstreamModel: string) {
  const canonical = anthropicMessagesProtocol.readRequest({ model: 'm', max_tokens: 10, ...body });
  return { body: bedrockConverseProtocol.writeRequest(canonical, upstreamModel, NO_EXTRA_FEATURES), dropped: canonical.dropped.list() };
}

/** Claude Code's shape: a marked system text, a marked tool, a marked last user block. */
const marked = {
  system: [{ type: 'text', text: 'You are Claude Code.' }, { type: 'text', text: 'Long system', cache_control: ephemeral }],
  tools: [{ name: 't', input_schema: { type: 'object' }, cache_control: ephemeral }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: ephemeral }, { type: 'text', text: 'more' }] }],
};

describe('Converse cache points from cache_control marks', () => {
  it('writes a cachePoint after each marked block in system, messages and tools for a model the id does not name', () => {
    const { body, dropped } = toConverse(marked, CLAUDE_PROFILE);

    expect(body).toMatchObject({
      system: [{ text: 'You are Claude Code.' }, { text: 'Long system' }, cachePoint],
      messages: [{ role: 'user', content: [{ text: 'hi' }, cachePoint, { text: 'more' }] }],
      toolConfig: { tools: [{ toolSpec: { name: 't' } }, cachePoint] },
    });
    expect(dropped).toEqual([]);
  });

  it('leaves tools uncached on Nova, which caches system and messages only, and names the mark', () => {
    const { body, dropped } = toConverse(marked, NOVA);

    expect(body).toMatchObject({ system: [{ text: 'You are Claude Code.' }, { text: 'Long system' }, cachePoint], messages: [{ content: [{ text: 'hi' }, cachePoint, { text: 'more' }] }] });
    expect(body).toHaveProperty('toolConfig.tools', [{ toolSpec: { name: 't', inputSchema: { json: { type: 'object', properties: {} } } } }]);
    expect(dropped).toEqual(['tools[].cache_control']);
  });

  it('writes no cachePoint for a model Bedrock serves without caching (it would refuse the request), naming the marks', () => {
    const { body, dropped } = toConverse(marked, 'meta.llama3-3-70b-instruct-v1:0');

    expect(JSON.stringify(body)).not.toContain('cachePoint');
    expect(dropped).toEqual(['tools[].cache_control', 'system[].cache_control', 'messages[].content[].cache_control']);
  });

  it('keeps the last four marks in prompt order (tools, system, messages), dropping and naming earlier ones', () => {
    const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text, cache_control: ephemeral }] });
    const assistant = { role: 'assistant', content: 'ok' };
    const { body, dropped } = toConverse({ ...marked, messages: [user('one'), assistant, user('two'), assistant, user('three')] }, CLAUDE_PROFILE);

    expect(JSON.stringify(body.toolConfig)).not.toContain('cachePoint');
    expect(body.system).toEqual([{ text: 'You are Claude Code.' }, { text: 'Long system' }, cachePoint]);
    expect((body.messages as Array<{ content: unknown[] }>).map((message) => message.content)).toEqual([
      [{ text: 'one' }, cachePoint],
      [{ text: 'ok' }],
      [{ text: 'two' }, cachePoint],
      [{ text: 'ok' }],
      [{ text: 'three' }, cachePoint],
    ]);
    expect(dropped).toEqual(['tools[].cache_control']);
  });

  it('keeps a mark with its tool result when the results move first in their turn, and on system turns hoisted into system', () => {
    const { body } = toConverse(
      {
        messages: [
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'tu_1', name: 't', input: {} }] },
          { role: 'user', content: [{ type: 'text', text: 'and then' }, { type: 'tool_result', tool_use_id: 'tu_1', content: '18°C', cache_control: ephemeral }] },
          { role: 'system', content: [{ type: 'text', text: 'Reminder', cache_control: ephemeral }] },
        ],
        tools: [{ name: 't', input_schema: { type: 'object' } }],
      },
      NOVA,
    );

    expect(body.system).toEqual([{ text: 'Reminder' }, cachePoint]);
    expect((body.messages as Array<{ content: unknown[] }>)[2]?.content).toEqual([{ toolResult: { toolUseId: 'tu_1', content: [{ text: '18°C' }] } }, cachePoint, { text: 'and then' }]);
  });

  it('names a ttl it does not carry (the default lifetime applies)', () => {
    const { body, dropped } = toConverse({ system: [{ type: 'text', text: 'S', cache_control: { type: 'ephemeral', ttl: '1h' } }], messages: [{ role: 'user', content: 'hi' }] }, NOVA);
    expect(body.system).toEqual([{ text: 'S' }, cachePoint]);
    expect(dropped).toEqual(['cache_control.ttl']);
  });
});
