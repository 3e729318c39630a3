/** Percentile (0–100) of unsorted samples, linearly interpolated between the nearest ranks. */
export function percentile(samples: ArrayLike<number>, p: number): number {
  const sorted = Float64Array.from(samples).sort();
  if (sorted.length === 0) return Number.NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const lowValue = sorted[low] ?? Number.NaN;
  const highValue = sorted[high] ?? lowValue;
  return lowValue + (highValue - lowValue) * (rank - low);
}

export const median = (samples: ArrayLike<number>): number => percentile(samples, 50);

/** A figure measured over several rounds: the median, and the spread (lowest and highest round). */
export interface Summary {
  median: number;
  min: number;
  max: number;
  rounds: number[];
}

export function summarize(rounds: number[]): Summary {
  const finite = rounds.filter(Number.isFinite);
  return {
    median: median(finite),
    min: finite.length ? Math.min(...finite) : Number.NaN,
    max: finite.length ? Math.max(...finite) : Number.NaN,
    rounds: rounds.map((value) => round(value, 4)),
  };
}

export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** "0.42 (0.31–0.55)": a summary for the table. */
export function formatSummary(summary: Summary | undefined, digits = 2, unit = ''): string {
  if (!summary || !Number.isFinite(summary.median)) return 'n/a';
  return `${summary.median.toFixed(digits)}${unit} (${summary.min.toFixed(digits)}–${summary.max.toFixed(digits)})`;
}

/** Round-robin rotation: round r starts with the r-th target, so no target always runs first or last. */
export function rotate<T>(items: readonly T[], by: number): T[] {
  const shift = ((by % items.length) + items.length) % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}
