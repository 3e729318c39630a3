import { describe, expect, it } from 'vitest';
import { baseUrlHint } from '../../shared/http/base-url-hint.ts';

describe('baseUrlHint', () => {
  it('names a base URL whose /v1 the client added again', () => {
    expect(baseUrlHint('/v1/v1/messages')).toMatch(/repeats \/v1/);
    expect(baseUrlHint('/v1/v1')).toMatch(/repeats \/v1/);
  });

  it('names a base URL without /v1', () => {
    expect(baseUrlHint('/chat/completions')).toMatch(/routes start with \/v1/);
    expect(baseUrlHint('/messages')).toMatch(/routes start with \/v1/);
  });

  it('says nothing of a path under /v1 or /mcp', () => {
    expect(baseUrlHint('/v1/unknown')).toBe('');
    expect(baseUrlHint('/v1')).toBe('');
    expect(baseUrlHint('/mcp/v2')).toBe('');
    expect(baseUrlHint('/v1/videos/v1')).toBe('');
  });
});
