/**
 * The one name a mistyped one most likely meant: the same letters in another case, or within two edits
 * (a swap of two neighbouring letters is one; and a third of the name's length) of exactly one candidate. Anything looser suggests nonsense.
 */
export function closestName(typed: string, candidates: readonly string[]): string | undefined {
  const lower = typed.toLowerCase();
  const sameLetters = candidates.filter((candidate) => candidate.toLowerCase() === lower);
  if (sameLetters.length > 0) return sameLetters.length === 1 ? sameLetters[0] : undefined;
  const limit = Math.min(2, Math.floor(typed.length / 3));
  const near = [...new Set(candidates)].filter((candidate) => editDistance(lower, candidate.toLowerCase(), limit) <= limit);
  return near.length === 1 ? near[0] : undefined;
}

/**
 * Edits between two names, two neighbouring letters swapped counting as one (the optimal string alignment
 * distance: `fsat` is one edit from `fast`, as a person sees it, not two); given up (limit + 1) once it must
 * exceed `limit`.
 */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      let cost = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cost = Math.min(cost, (beforePrevious[j - 2] as number) + 1);
      current[j] = cost;
    }
    if (Math.min(...current) > limit) return limit + 1;
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length] as number;
}
