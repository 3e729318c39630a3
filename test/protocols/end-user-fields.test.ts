import { describe, expect, it } from 'vitest';
import { anthropicEndUser, openAiEndUser } from '../../shared/protocols/end-user-fields.ts';

describe('openAiEndUser', () => {
  it('reads the end user from `user`', () => {
    expect(openAiEndUser({ model: 'm', user: 'user-123' })).toBe('user-123');
  });

  it('reads `safety_identifier` when the body has no `user`', () => {
    expect(openAiEndUser({ model: 'm', safety_identifier: 'hashed-42' })).toBe('hashed-42');
  });

  it('takes `user` before `safety_identifier` when the body has both', () => {
    expect(openAiEndUser({ user: 'user-123', safety_identifier: 'hashed-42' })).toBe('user-123');
  });

  it('passes over a `user` that names no one (empty, blank, not text) to `safety_identifier`', () => {
    expect(openAiEndUser({ user: '', safety_identifier: 'hashed-42' })).toBe('hashed-42');
    expect(openAiEndUser({ user: '  ', safety_identifier: 'hashed-42' })).toBe('hashed-42');
    expect(openAiEndUser({ user: 42, safety_identifier: 'hashed-42' })).toBe('hashed-42');
    expect(openAiEndUser({ user: null })).toBeUndefined();
    expect(openAiEndUser({ model: 'm' })).toBeUndefined();
  });
});

describe('anthropicEndUser', () => {
  it('reads the end user from `metadata.user_id`', () => {
    expect(anthropicEndUser({ model: 'm', metadata: { user_id: 'user-123' } })).toBe('user-123');
  });

  it('finds none without metadata, without user_id, or with a user_id that is not text', () => {
    expect(anthropicEndUser({ model: 'm' })).toBeUndefined();
    expect(anthropicEndUser({ metadata: null })).toBeUndefined();
    expect(anthropicEndUser({ metadata: {} })).toBeUndefined();
    expect(anthropicEndUser({ metadata: { user_id: 7 } })).toBeUndefined();
    expect(anthropicEndUser({ metadata: 'user-123' })).toBeUndefined();
  });

  it('does not read OpenAI’s `user` on a Messages body', () => {
    expect(anthropicEndUser({ user: 'user-123' })).toBeUndefined();
  });
});
