import { describe, expect, it } from 'vitest';
import { completionsGenerations, completionsPromptTokenIds, parseCompletionsRequest } from '../../../shared/protocols/openai-completions/completions-request.ts';

const parse = (body: Record<string, unknown>) => parseCompletionsRequest(JSON.stringify({ model: 'openai/gpt-3.5-turbo-instruct', ...body }));

describe('completionsGenerations', () => {
  it('counts one prompt and one choice for a plain prompt', () => {
    expect(completionsGenerations(parse({ prompt: 'Say this is a test' }))).toEqual({ prompts: 1, choices: 1 });
  });

  it('counts n choices for each prompt of a list', () => {
    expect(completionsGenerations(parse({ prompt: ['one', 'two', 'three'], n: 4 }))).toEqual({ prompts: 3, choices: 12 });
  });

  it('counts best_of choices per prompt when it asks for more candidates than n returns: the provider bills them all', () => {
    expect(completionsGenerations(parse({ prompt: ['one', 'two'], n: 2, best_of: 5 }))).toEqual({ prompts: 2, choices: 10 });
  });

  it('takes a token array as one prompt, and a list of token arrays as one prompt each', () => {
    expect(completionsGenerations(parse({ prompt: [1, 2, 3], n: 2 }))).toEqual({ prompts: 1, choices: 2 });
    expect(completionsGenerations(parse({ prompt: [[1, 2], [3], [4, 5]], n: 2 }))).toEqual({ prompts: 3, choices: 6 });
  });
});

describe('completionsPromptTokenIds', () => {
  it('counts the ids of a token array and of a list of them, and none in text prompts', () => {
    expect(completionsPromptTokenIds(parse({ prompt: [1, 2, 3] }))).toBe(3);
    expect(completionsPromptTokenIds(parse({ prompt: [[1, 2], [3], [4, 5]] }))).toBe(5);
    expect(completionsPromptTokenIds(parse({ prompt: ['one', 'two'] }))).toBe(0);
    expect(completionsPromptTokenIds(parse({ prompt: 'Say this is a test' }))).toBe(0);
  });
});

describe('parseCompletionsRequest', () => {
  it.each([0, 129, 1.5, '2'])('refuses n = %j with a 400 naming it (the reservation must count every choice)', (n) => {
    expect(() => parse({ prompt: 'x', n })).toThrow(expect.objectContaining({ status: 400, param: 'n' }));
  });

  it.each([0, 21, '3'])('refuses best_of = %j with a 400 naming it', (bestOf) => {
    expect(() => parse({ prompt: 'x', best_of: bestOf })).toThrow(expect.objectContaining({ status: 400, param: 'best_of' }));
  });
});
