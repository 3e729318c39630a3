/**
 * The token ids in one of OpenAI's text-or-tokens inputs (embeddings' `input`, completions' `prompt`): a
 * string, strings, a token array or token arrays. Strings hold none (the tokenizer estimates those).
 */
export function countTokenIds(input: string | readonly string[] | readonly number[] | readonly (readonly number[])[]): number {
  if (typeof input === 'string') return 0;
  let count = 0;
  for (const item of input) {
    if (typeof item === 'number') count += 1;
    else if (typeof item !== 'string') count += item.length;
  }
  return count;
}
