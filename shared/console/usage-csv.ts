import type { UsageResultRow } from '../core/ports.ts';

/** Characters that make a spreadsheet read a cell as a formula: such text cells get a leading apostrophe. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. */
function csvCell(value: UsageResultRow[string] | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  // Attribution columns (app title, referer…) come from clients: never let one run as a formula.
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The rows as CSV with a header line, CRLF line ends. */
export function toCsv(columns: readonly string[], rows: readonly UsageResultRow[]): string {
  const lines = [columns.join(','), ...rows.map((row) => columns.map((column) => csvCell(row[column])).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}
