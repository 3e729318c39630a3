import { describe, expect, it } from 'vitest';
import { redactAnswer } from '../../shared/mcp/redact-answer.ts';

const SECRETS = ['Bearer tok-0123456789', 'tok-0123456789'];

describe('redactAnswer', () => {
  it('redacts a secret in any string of the answer, however deep, the whole value first', () => {
    const answer = {
      content: [{ type: 'text', text: 'got "Bearer tok-0123456789", i.e. tok-0123456789' }],
      structuredContent: { nested: [{ token: 'tok-0123456789' }] },
      isError: true,
    };
    expect(redactAnswer(answer, SECRETS)).toEqual({
      content: [{ type: 'text', text: 'got "[redacted]", i.e. [redacted]' }],
      structuredContent: { nested: [{ token: '[redacted]' }] },
      isError: true,
    });
  });

  it('renames a property whose name holds a secret, keeping its value and the other properties', () => {
    const answer = { structuredContent: { sessions: { 'tok-0123456789': { user: 'ada' }, other: 1 } } };
    expect(redactAnswer(answer, SECRETS)).toEqual({ structuredContent: { sessions: { '[redacted]': { user: 'ada' }, other: 1 } } });
  });

  it('copies only what holds a secret: the rest of the answer is shared, an answer without one is the same object', () => {
    const image = { type: 'image', data: 'A'.repeat(100_000), mimeType: 'image/png' };
    const answer = { content: [image, { type: 'text', text: 'tok-0123456789' }], _meta: { trace: 'x' } };

    const redacted = redactAnswer(answer, SECRETS);

    expect(redacted).not.toBe(answer);
    expect(redacted.content[0]).toBe(image);
    expect(redacted._meta).toBe(answer._meta);
    expect(answer.content[1]).toEqual({ type: 'text', text: 'tok-0123456789' });
    const clean = { content: [image] };
    expect(redactAnswer(clean, SECRETS)).toBe(clean);
  });

  it('leaves everything as it is when the server has no secret', () => {
    const answer = { content: [{ type: 'text', text: 'tok-0123456789' }] };
    expect(redactAnswer(answer, [])).toBe(answer);
    expect(redactAnswer(answer, [''])).toBe(answer);
  });
});
