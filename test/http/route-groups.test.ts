import { describe, expect, it } from 'vitest';
import { matchesPathPattern, routeGroupForPath, routeGroups, type RouteGroup } from '../../shared/http/route-groups.ts';

describe('matchesPathPattern (CloudFront path patterns)', () => {
  it.each([
    ['/v1/messages', '/v1/messages*', true],
    ['/v1/messages/count_tokens', '/v1/messages*', true],
    ['/v1/messages.x', '/v1/messages*', true],
    ['/v1/message', '/v1/messages*', false],
    ['/v1/editor/chat/completions', '/v1/editor/*', true],
    ['/v1/editor', '/v1/editor/*', false],
    ['/mcp/v1', '/mcp/?1', true],
    ['/V1/messages', '/v1/messages*', false],
  ])('%s against %s: %s', (path, pattern, expected) => {
    expect(matchesPathPattern(path, pattern)).toBe(expected);
  });
});

describe('routeGroupForPath', () => {
  const groups: RouteGroup[] = [
    { name: 'openai', entry: 'a', paths: 'default' },
    { name: 'messages', entry: 'b', paths: ['/v1/messages*'] },
    { name: 'editor', entry: 'c', paths: ['/v1/editor/*'] },
  ];

  it('sends a path to the first group whose pattern matches, and the rest to the default group', () => {
    expect(routeGroupForPath('/v1/messages/count_tokens', groups).name).toBe('messages');
    expect(routeGroupForPath('/v1/editor/chat/completions', groups).name).toBe('editor');
    expect(routeGroupForPath('/v1/chat/completions', groups).name).toBe('openai');
    expect(routeGroupForPath('/health', groups).name).toBe('openai');
  });

  it('matches the path as sent, as CloudFront does: a repeated slash reaches the default group, which normalises it', () => {
    expect(routeGroupForPath('/v1//messages', groups).name).toBe('openai');
    expect(routeGroupForPath('//v1/editor/chat/completions', groups).name).toBe('openai');
  });
});

describe('the route groups of the gateway', () => {
  it('sends the tool bridge (/mcp/v1) to the mcp function, and nothing else there', () => {
    expect(routeGroupForPath('/mcp/v1', routeGroups)).toMatchObject({ name: 'mcp', entry: 'functions/mcp/handler.ts' });
    expect(routeGroupForPath('/v1/mcp', routeGroups).name).toBe('openai');
    expect(routeGroupForPath('/v1/messages', routeGroups).name).toBe('messages');
  });

  it('sends the editor route (/v1/editor/*) to the editor function, and the legacy /v1 routes to the OpenAI-compatible one', () => {
    for (const path of ['/v1/editor/chat/completions', '/v1/editor/v1/chat/completions', '/v1/editor/models']) {
      expect(routeGroupForPath(path, routeGroups), path).toMatchObject({ name: 'editor', entry: 'functions/editor/handler.ts', protocol: 'openai-chat' });
    }
    expect(routeGroupForPath('/v1/chat/completions', routeGroups).name).toBe('openai');
    expect(routeGroupForPath('/v1/editorial', routeGroups).name).toBe('openai');
  });
});
