import { afterEach, describe, expect, it, vi } from 'vitest';
import { readEventData } from '../../shared/canonical/read-payload.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('readEventData', () => {
  it('parses the JSON text of an event, and passes a value that is not text as it is', () => {
    expect(readEventData('{"id":"chatcmpl-1","choices":[]}')).toEqual({ id: 'chatcmpl-1', choices: [] });
    expect(readEventData({ already: 'parsed' })).toEqual({ already: 'parsed' });
  });

  it('reads text that is not JSON as no data', () => {
    expect(readEventData('keep-alive')).toBeUndefined();
    expect(readEventData('{"torn":')).toBeUndefined();
  });

  it("reads OpenAI's [DONE] as no data without trying to parse it (a failed parse throws, at a cost on every stream)", () => {
    const parse = vi.spyOn(JSON, 'parse');
    expect(readEventData('[DONE]')).toBeUndefined();
    expect(parse).not.toHaveBeenCalled();
  });
});
