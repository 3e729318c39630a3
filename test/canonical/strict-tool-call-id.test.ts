import { describe, expect, it } from 'vitest';
import { strictToolCallId } from '../../shared/canonical/strict-tool-call-id.ts';

const STRICT_TOOL_CALL_ID = /^[a-zA-Z0-9_-]{1,64}$/;

describe('strictToolCallId', () => {
  it('keeps an id Anthropic and Converse take as it is', () => {
    for (const id of ['call_abc123', 'toolu_01D7FLrfh4GYq7yT1ULFeyMV', 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', 'a'.repeat(64)]) expect(strictToolCallId(id)).toBe(id);
  });

  it('rewrites an id with characters they refuse, or too long, into one they take, the same every time', () => {
    const kimi = strictToolCallId('functions.read_file:1');
    expect(kimi).toMatch(/^functions_read_file_1_[0-9a-f]{8}$/);
    expect(strictToolCallId('functions.read_file:1')).toBe(kimi);
    for (const id of ['functions.read_file:1', `call_${'a'.repeat(24)}|fc_${'b'.repeat(48)}`, 'a'.repeat(65), '::', 'é']) expect(strictToolCallId(id)).toMatch(STRICT_TOOL_CALL_ID);
  });

  it('keeps two ids two when they differ only where they are rewritten', () => {
    expect(strictToolCallId('get:1')).not.toBe(strictToolCallId('get.1'));
    expect(strictToolCallId('get:1')).not.toBe('get_1');
    expect(strictToolCallId(`${'x'.repeat(64)}1`)).not.toBe(strictToolCallId(`${'x'.repeat(64)}2`));
  });
});
