import { describe, expect, it } from 'vitest';
import { lenientRequestPath, normaliseRequestPath } from '../../shared/http/request-path.ts';

describe('normaliseRequestPath', () => {
  it.each([
    ['/v1//messages', '/v1/messages'],
    ['//v1///chat//completions', '/v1/chat/completions'],
    ['/v1/models/', '/v1/models'],
    ['/v1/messages//', '/v1/messages'],
    ['/', '/'],
    ['//', '/'],
    ['/v1/%65mbeddings', '/v1/embeddings'],
    ['/v1/%6D%65ssages', '/v1/messages'],
    ['/v1/%6d%65ssages', '/v1/messages'],
    ['/v1/files/file%2Dabc%5F1%7E', '/v1/files/file-abc_1~'],
    ['/v1/%2e%2e/admin', '/v1/../admin'],
  ])('reads %s as %s', (path, expected) => {
    expect(normaliseRequestPath(path)).toBe(expected);
  });

  it('keeps reserved and other characters encoded: an encoded slash is no slash', () => {
    expect(normaliseRequestPath('/v1/models/openai%2Fgpt-4o-mini')).toBe('/v1/models/openai%2Fgpt-4o-mini');
    expect(normaliseRequestPath('/v1/files/a%20b%3Fc%25')).toBe('/v1/files/a%20b%3Fc%25');
    expect(normaliseRequestPath('/v1/files/%zz%6')).toBe('/v1/files/%zz%6');
  });

  it('leaves a normalised path as it is', () => {
    for (const path of ['/health', '/v1/chat/completions', '/mcp/v1', '/v1/models/openai/gpt-4o-mini']) expect(normaliseRequestPath(path)).toBe(path);
  });
});

describe('lenientRequestPath', () => {
  it.each([
    ['/v1/Chat/Completions', '/v1/chat/completions'],
    ['/v1/chat/completions;x=1', '/v1/chat/completions'],
    ['/v1/chat;a/completions;b', '/v1/chat/completions'],
    ['/v1/chat%2Fcompletions', '/v1/chat/completions'],
    ['/v1/chat%2fcompletions/', '/v1/chat/completions'],
    ['/v1/files/%zz', '/v1/files/%zz'],
    // A stray `%` leaves the other escapes to be decoded all the same.
    ['/v1/chat%2Fcompletions;%', '/v1/chat/completions'],
    ['/v1/CHAT%2fCOMPLETIONS;a=%', '/v1/chat/completions'],
  ])('reads %s as %s', (path, expected) => {
    expect(lenientRequestPath(path)).toBe(expected);
  });
});
