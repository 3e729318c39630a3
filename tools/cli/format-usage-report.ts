import { escapeControlCharacters } from '../../shared/core/control-characters.ts';
import { formatScaledInteger } from '../../shared/core/usd-decimal.ts';
import type { UsageReportLine } from './local-usage-query.ts';

const NANOS_SCALE = 9;

const headers = ['day', 'project', 'model', 'requests', 'prompt tokens', 'completion tokens', 'cost (USD)'] as const;
/** Numbers are right-aligned so their digits line up. */
const rightAligned = new Set([3, 4, 5, 6]);
const COST_COLUMN = 6;

/** Exact USD from nano-USD: never through floating point, up to 9 decimals, no trailing zeros. */
export function formatNanosAsUsd(nanos: bigint): string {
  return formatScaledInteger(nanos, NANOS_SCALE);
}

/** A model's slug is an owner's text (the console lets owners allow models): control characters show escaped. */
function cells(line: UsageReportLine): string[] {
  return [
    line.day,
    escapeControlCharacters(line.projectId),
    escapeControlCharacters(line.model),
    String(line.requests),
    line.promptTokens.toString(),
    line.completionTokens.toString(),
    formatNanosAsUsd(line.costNanos),
  ];
}

function totalCells(lines: UsageReportLine[]): string[] {
  let requests = 0;
  let promptTokens = 0n;
  let completionTokens = 0n;
  let costNanos = 0n;
  for (const line of lines) {
    requests += line.requests;
    promptTokens += line.promptTokens;
    completionTokens += line.completionTokens;
    costNanos += line.costNanos;
  }
  return ['total', '', '', String(requests), promptTokens.toString(), completionTokens.toString(), formatNanosAsUsd(costNanos)];
}

/** Pads amounts after their decimal point so the points line up once the column is right-aligned. */
function alignDecimalPoints(amounts: string[]): string[] {
  const fractionLength = (amount: string) => (amount.includes('.') ? amount.length - amount.indexOf('.') : 0);
  const longest = Math.max(0, ...amounts.map(fractionLength));
  return amounts.map((amount) => amount + ' '.repeat(longest - fractionLength(amount)));
}

/** A plain-text table, one line per day, project and model, then a separator and the total. */
export function formatUsageReport(lines: UsageReportLine[]): string {
  const dataRows = [...lines.map(cells), totalCells(lines)];
  const costs = alignDecimalPoints(dataRows.map((row) => row[COST_COLUMN] ?? ''));
  const table = [[...headers], ...dataRows.map((row, index) => row.with(COST_COLUMN, costs[index] ?? ''))];
  const widths = headers.map((_, column) => Math.max(...table.map((row) => (row[column] ?? '').length)));
  const render = (row: string[]) =>
    row
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        return rightAligned.has(column) ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  const [header = '', ...rest] = table.map(render);
  const separator = widths.map((width) => '-'.repeat(width)).join('  ');
  return [header, separator, ...rest.slice(0, -1), separator, ...rest.slice(-1)].join('\n');
}
