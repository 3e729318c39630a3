import { describe, expect, it } from 'vitest';
import { attributionSchema } from '../../shared/core/usage-record.ts';
import { readAttribution } from '../../shared/pipeline/attribution.ts';

describe('readAttribution', () => {
  it('omits every field whose header is absent', () => {
    expect(readAttribution({})).toEqual({});
    expect(Object.keys(readAttribution({ 'x-title': 'App' }))).toEqual(['title']);
  });

  it('reads every field from its header', () => {
    expect(
      readAttribution({
        'x-environment': 'production',
        'http-referer': 'https://app.example.com/',
        'x-title': 'Example App',
        'x-claude-code-session-id': 'session-1',
        'x-claude-code-agent-id': 'agent-1',
        'user-agent': 'claude-cli/1.0.0',
      }),
    ).toEqual({
      environment: 'production',
      referer: 'https://app.example.com/',
      title: 'Example App',
      sessionId: 'session-1',
      agentId: 'agent-1',
      userAgent: 'claude-cli/1.0.0',
    });
  });

  it.each([
    ['sessionId', 'x-claude-code-session-id', 'x-agent-code-session-id'],
    ['agentId', 'x-claude-code-agent-id', 'x-agent-code-agent-id'],
    ['environment', 'x-environment', 'x-llm-environment'],
    ['referer', 'http-referer', 'referer'],
    ['title', 'x-title', 'x-partner-title'],
    ['title', 'x-partner-title', 'x-openrouter-title'],
  ])('takes %s from %s before %s', (field, preferred, fallback) => {
    expect(readAttribution({ [fallback]: 'second', [preferred]: 'first' })).toEqual({ [field]: 'first' });
    expect(readAttribution({ [fallback]: 'second' })).toEqual({ [field]: 'second' });
  });

  it("accepts the spec's X-Agent-Code-* names when Claude Code's are absent", () => {
    expect(readAttribution({ 'x-agent-code-session-id': 's', 'x-agent-code-agent-id': 'a' })).toEqual({ sessionId: 's', agentId: 'a' });
  });

  it('falls back when the preferred header is empty or only whitespace', () => {
    expect(readAttribution({ 'x-environment': '   ', 'x-llm-environment': 'staging' })).toEqual({ environment: 'staging' });
    expect(readAttribution({ 'http-referer': '', referer: 'https://r.example/' })).toEqual({ referer: 'https://r.example/' });
  });

  it('trims surrounding whitespace', () => {
    expect(readAttribution({ 'x-title': '  My App \t' })).toEqual({ title: 'My App' });
  });

  it.each([
    ['environment', 'x-environment', 256],
    ['referer', 'http-referer', 1024],
    ['title', 'x-title', 256],
    ['sessionId', 'x-claude-code-session-id', 256],
    ['agentId', 'x-agent-code-agent-id', 256],
    ['userAgent', 'user-agent', 512],
  ])('bounds %s (from %s) to %i characters, and the record schema accepts it', (field, header, max) => {
    const exact = 'a'.repeat(max);
    expect(readAttribution({ [header]: exact })).toEqual({ [field]: exact });
    const long = readAttribution({ [header]: `${'b'.repeat(max)}overflow` });
    expect(long).toEqual({ [field]: 'b'.repeat(max) });
    expect(attributionSchema.safeParse(long).success).toBe(true);
  });

  it('reads an app name sent as UTF-8 (its bytes arrive one character each) as the name it is', () => {
    const asHeaderBytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
    expect(readAttribution({ 'x-title': asHeaderBytes('Ünïcødé 🚀'), 'x-environment': asHeaderBytes('prüfung') })).toEqual({ title: 'Ünïcødé 🚀', environment: 'prüfung' });
  });

  it('keeps a value that is not UTF-8 (Latin-1 bytes) or that already holds wide characters as it is', () => {
    expect(readAttribution({ 'x-title': 'Caf\u00e9', 'x-environment': 'Ünïcødé 🚀' })).toEqual({ title: 'Café', environment: 'Ünïcødé 🚀' });
  });

  it('ignores headers it does not know', () => {
    expect(readAttribution({ authorization: 'Bearer secret', 'x-api-key': 'k', 'x-request-id': 'r' })).toEqual({});
  });

  it('records the end user the body names, trimmed, beside the headers', () => {
    expect(readAttribution({ 'x-title': 'App' }, '  user-123 ')).toEqual({ title: 'App', endUser: 'user-123' });
  });

  it('records no end user when the body names none, or only blanks', () => {
    expect(readAttribution({}, undefined)).toEqual({});
    expect(readAttribution({}, ' \t')).toEqual({});
  });

  it('bounds the end user to 256 characters without leaving half of an emoji, and the record schema accepts it', () => {
    expect(readAttribution({}, 'a'.repeat(256))).toEqual({ endUser: 'a'.repeat(256) });
    const long = readAttribution({}, `${'a'.repeat(255)}🚀overflow`);
    expect(long).toEqual({ endUser: 'a'.repeat(255) });
    expect(attributionSchema.safeParse(long).success).toBe(true);
  });

  it('cuts a long value without leaving half of an emoji, so the record stays valid Unicode in every view', () => {
    const title = readAttribution({ 'x-title': Buffer.from(`${'a'.repeat(255)}🚀`, 'utf8').toString('latin1') }).title;
    expect(title).toBe('a'.repeat(255));
    expect(title?.isWellFormed()).toBe(true);
  });
});
