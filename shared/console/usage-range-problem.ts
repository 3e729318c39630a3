/**
 * The rule for a usage range, in one place for the console API and its page: two real UTC days
 * (YYYY-MM-DD), `from` not after `to`, at most MAX_RANGE_DAYS days with both ends counted. Pure: the page
 * bundles it, so it checks a range before sending it and says the same thing the API would.
 */
export const MAX_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;

/** What is wrong with the range, naming the fault, or undefined when it is a valid range. */
export function usageRangeProblem(from: string | null, to: string | null): string | undefined {
  const problem = dayProblem('from', from) ?? dayProblem('to', to);
  if (problem) return problem;
  const days = (dayTime(to ?? '') - dayTime(from ?? '')) / DAY_MS + 1;
  if (days < 1) return `"from" (${from}) is after "to" (${to}).`;
  if (days > MAX_RANGE_DAYS) return `The range from ${from} to ${to} has ${days} days; at most ${MAX_RANGE_DAYS}.`;
  return undefined;
}

function dayProblem(name: string, value: string | null): string | undefined {
  if (!value) return `"${name}" is missing: give a day as YYYY-MM-DD.`;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return `"${name}" (${value}) is not a day as YYYY-MM-DD.`;
  // Date.parse rolls 2026-02-30 over to March 2nd: a real day is one that reads back the same.
  const time = dayTime(value);
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value) return `"${name}" (${value}) is not a day of the calendar.`;
  return undefined;
}

function dayTime(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}
