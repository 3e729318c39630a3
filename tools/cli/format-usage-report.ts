import { escapeControlCharacters } from '../../shared/core/control-characters.ts';
import type { UsageResultRow } from '../../shared/core/ports.ts';
import { formatScaledInteger } from '../../shared/core/usd-decimal.ts';
import { toJsonValue, type UsageReportLine } from './local-usage-query.ts';

const NANOS_SCALE = 9;

/** Exact USD from nano-USD: never through floating point, up to 9 decimals, no trailing zeros. */
export function formatNanosAsUsd(nanos: bigint): string {
  return formatScaledInteger(nanos, NANOS_SCALE);
}

/** A column of counts: right-aligned so their digits line up, and summed exactly in the total row. */
function counted(header: string, value: (line: UsageReportLine) => bigint | number) {
  return {
    header,
    right: true,
    cell: (line: UsageReportLine) => String(value(line)),
    total: (lines: UsageReportLine[]) => String(lines.reduce((sum, line) => sum + BigInt(value(line)), 0n)),
  };
}

/**
 * The report's columns, what an invoice line needs: the requests (and of them the failed, billed what the
 * provider took), the prompt tokens (and of them those read from and written to the cache, priced apart), the
 * completion tokens, the web searches the provider ran, and the exact cost. A model's slug is an owner's
 * text (the console lets owners allow models): control characters show escaped.
 */
const COLUMNS = [
  { header: 'day', right: false, cell: (line: UsageReportLine) => line.day, total: () => 'total' },
  { header: 'project', right: false, cell: (line: UsageReportLine) => escapeControlCharacters(line.projectId), total: () => '' },
  { header: 'model', right: false, cell: (line: UsageReportLine) => escapeControlCharacters(line.model), total: () => '' },
  counted('requests', (line) => line.requests),
  counted('failed', (line) => line.failed),
  counted('prompt tokens', (line) => line.promptTokens),
  counted('cached', (line) => line.cachedTokens),
  counted('cache writes', (line) => line.cacheWriteTokens),
  counted('completion tokens', (line) => line.completionTokens),
  counted('web searches', (line) => line.webSearches),
  {
    header: 'cost (USD)',
    right: true,
    cell: (line: UsageReportLine) => formatNanosAsUsd(line.costNanos),
    total: (lines: UsageReportLine[]) => formatNanosAsUsd(lines.reduce((sum, line) => sum + line.costNanos, 0n)),
  },
];
const COST_COLUMN = COLUMNS.length - 1;

/** Pads amounts after their decimal point so the points line up once the column is right-aligned. */
function alignDecimalPoints(amounts: string[]): string[] {
  const fractionLength = (amount: string) => (amount.includes('.') ? amount.length - amount.indexOf('.') : 0);
  const longest = Math.max(0, ...amounts.map(fractionLength));
  return amounts.map((amount) => amount + ' '.repeat(longest - fractionLength(amount)));
}

/** A plain-text table, one line per day, project and model, then a separator and the total. */
export function formatUsageReport(lines: UsageReportLine[]): string {
  const headers = COLUMNS.map((column) => column.header);
  const dataRows = [...lines.map((line) => COLUMNS.map((column) => column.cell(line))), COLUMNS.map((column) => column.total(lines))];
  const costs = alignDecimalPoints(dataRows.map((row) => row[COST_COLUMN] ?? ''));
  const table = [headers, ...dataRows.map((row, index) => row.with(COST_COLUMN, costs[index] ?? ''))];
  const widths = headers.map((_, column) => Math.max(...table.map((row) => (row[column] ?? '').length)));
  const render = (row: string[]) =>
    row
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        return COLUMNS[column]?.right ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  const [header = '', ...rest] = table.map(render);
  const separator = widths.map((width) => '-'.repeat(width)).join('  ');
  return [header, separator, ...rest.slice(0, -1), separator, ...rest.slice(-1)].join('\n');
}

/**
 * The report's lines as rows for a spreadsheet or a script (no total row: a sum is the reader's), named as
 * the usage files' columns; counts beyond 2^53 and the cost as exact decimal strings, never rounded.
 */
export const USAGE_REPORT_ROW_COLUMNS = [
  'day', 'project_id', 'model', 'requests', 'failed', 'prompt_tokens', 'cached_tokens', 'cache_write_tokens', 'completion_tokens', 'web_searches', 'cost_nanos', 'cost_usd',
] as const;

export function usageReportRows(lines: readonly UsageReportLine[]): Array<UsageResultRow & Record<(typeof USAGE_REPORT_ROW_COLUMNS)[number], unknown>> {
  const exact = (count: bigint) => toJsonValue(count) as number | string;
  return lines.map((line) => ({
    day: line.day,
    project_id: line.projectId,
    model: line.model,
    requests: line.requests,
    failed: line.failed,
    prompt_tokens: exact(line.promptTokens),
    cached_tokens: exact(line.cachedTokens),
    cache_write_tokens: exact(line.cacheWriteTokens),
    completion_tokens: exact(line.completionTokens),
    web_searches: exact(line.webSearches),
    cost_nanos: exact(line.costNanos),
    cost_usd: formatNanosAsUsd(line.costNanos),
  }));
}
