import { punctuate } from './punctuation.ts';

export default function exclaim(name: string): string {
  return punctuate(name);
}
