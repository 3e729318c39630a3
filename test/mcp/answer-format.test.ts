import { describe, expect, it } from 'vitest';
import { chooseAnswerFormat } from '../../shared/mcp/answer-format.ts';

describe('chooseAnswerFormat', () => {
  it.each<[string | undefined, 'json' | 'sse' | undefined]>([
    ['application/json, text/event-stream', 'sse'],
    ['text/event-stream, application/json', 'sse'],
    ['application/json', 'json'],
    ['text/event-stream', 'sse'],
    ['application/json;q=1, text/event-stream;q=0.5', 'json'],
    ['text/event-stream;q=0.9, application/*', 'json'],
    ['application/json, text/*;q=0.2', 'json'],
    ['*/*', 'sse'],
    [undefined, 'sse'],
    ['application/json;q=0, text/event-stream;q=0', undefined],
    ['text/html', undefined],
  ])('answers Accept: %s with %s', (accept, format) => {
    expect(chooseAnswerFormat(accept)).toBe(format);
  });

  it('lets the most specific range decide a type: application/json;q=0 beats */*', () => {
    expect(chooseAnswerFormat('application/json;q=0, */*')).toBe('sse');
    expect(chooseAnswerFormat('text/event-stream;q=0, */*')).toBe('json');
  });
});
