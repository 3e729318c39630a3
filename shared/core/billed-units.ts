import * as z from 'zod';

const count = z.number().int().nonnegative().optional();

/**
 * What a request is billed beyond tokens: the request itself, images made, seconds of audio transcribed,
 * characters spoken, search units of a rerank, seconds of video, web searches a provider ran for the model
 * (Anthropic's and OpenAI's web search tools, billed per search). Whole numbers (providers bill whole
 * seconds, rounded up), each priced by its own entry of the rate card (unit-prices.ts).
 */
export const billedUnitsSchema = z.object({
  requests: count,
  images: count,
  audioSeconds: count,
  characters: count,
  searchUnits: count,
  videoSeconds: count,
  webSearches: count,
});
export type BilledUnits = z.infer<typeof billedUnitsSchema>;
export type BilledUnit = keyof BilledUnits;

export const BILLED_UNITS: readonly BilledUnit[] = ['requests', 'images', 'audioSeconds', 'characters', 'searchUnits', 'videoSeconds', 'webSearches'];

/** The units of both, added up. */
export function addUnits(a: BilledUnits | undefined, b: BilledUnits | undefined): BilledUnits {
  const sum: BilledUnits = {};
  for (const unit of BILLED_UNITS) {
    const value = (a?.[unit] ?? 0) + (b?.[unit] ?? 0);
    if (value > 0) sum[unit] = value;
  }
  return sum;
}

/** Whether any unit is billed at all. */
export function hasUnits(units: BilledUnits | undefined): units is BilledUnits {
  return units !== undefined && BILLED_UNITS.some((unit) => (units[unit] ?? 0) > 0);
}

/** Seconds as providers bill them: whole seconds, a started second counted. */
export function billedSeconds(seconds: number): number {
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 0;
}
