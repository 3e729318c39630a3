import { randomBytes } from 'node:crypto';

/**
 * JSON with some numbers written as exact decimal literals. JSON.stringify prints small numbers in
 * exponent notation (1.5e-7); money is shown as the exact decimal instead (0.00000015). `build` receives
 * a function that stands in for each decimal, and the stand-ins are replaced after serialisation.
 */
export function stringifyWithExactDecimals(build: (decimal: (value: string) => unknown) => unknown): string {
  const marker = `__exact_${randomBytes(8).toString('hex')}_`;
  const values: string[] = [];
  const payload = build((value) => {
    values.push(value);
    return `${marker}${values.length - 1}`;
  });
  return JSON.stringify(payload).replace(new RegExp(`"${marker}(\\d+)"`, 'g'), (_match, index: string) => values[Number(index)] ?? 'null');
}
