import { describe, expect, it } from 'vitest';
import { converseToolUseId } from '../../../shared/protocols/bedrock-converse/converse-tool-use-id.ts';

const CONVERSE_TOOL_USE_ID = /^[a-zA-Z0-9_-]{1,64}$/;

describe('converseToolUseId', () => {
  it('keeps an id Converse takes as it is', () => {
    for (const id of ['call_abc123', 'toolu_01D7FLrfh4GYq7yT1ULFeyMV', 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', 'a'.repeat(64)]) expect(converseToolUseId(id)).toBe(id);
  });

  it('rewrites an id with characters Converse refuses, or too long, into one it takes, the same every time', () => {
    const kimi = converseToolUseId('functions.read_file:1');
    expect(kimi).toMatch(/^functions_read_file_1_[0-9a-f]{8}$/);
    expect(converseToolUseId('functions.read_file:1')).toBe(kimi);
    for (const id of ['functions.read_file:1', `call_${'a'.repeat(24)}|fc_${'b'.repeat(48)}`, 'a'.repeat(65), '::', 'é']) expect(converseToolUseId(id)).toMatch(CONVERSE_TOOL_USE_ID);
  });

  it('keeps two ids two when they differ only where they are rewritten', () => {
    expect(converseToolUseId('get:1')).not.toBe(converseToolUseId('get.1'));
    expect(converseToolUseId('get:1')).not.toBe('get_1');
    expect(converseToolUseId(`${'x'.repeat(64)}1`)).not.toBe(converseToolUseId(`${'x'.repeat(64)}2`));
  });
});
