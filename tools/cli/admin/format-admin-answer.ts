import { escapeControlCharacters } from '../../../shared/core/control-characters.ts';
import type { OutputFormat } from './build-admin-program.ts';

type Row = Record<string, unknown>;

function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isListOfRows(value: unknown): value is Row[] {
  return Array.isArray(value) && value.every(isRow);
}

/** A value as table text; names come from people (a console member names their keys), so control characters show escaped. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return escapeControlCharacters(text);
}

/** Left-aligned columns two spaces apart, headers in capitals (as gh and kubectl print them). */
export function renderTable(rows: readonly Row[]): string {
  if (rows.length === 0) return '(none)';
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const lines = [columns.map((column) => escapeControlCharacters(column.toUpperCase())), ...rows.map((row) => columns.map((column) => cell(row[column])))];
  const widths = columns.map((_, index) => Math.max(...lines.map((line) => (line[index] ?? '').length)));
  return lines.map((line) => line.map((text, index) => text.padEnd(widths[index] ?? 0)).join('  ').trimEnd()).join('\n');
}

/** A single object: its plain fields as FIELD/VALUE rows (nested objects with dotted names), each list of objects as its own table. */
function renderRecord(record: Row): string {
  const fields: Row[] = [];
  const sections: string[] = [];
  const visit = (prefix: string, value: Row) => {
    for (const [name, entry] of Object.entries(value)) {
      if (isListOfRows(entry) && entry.length > 0) sections.push(`${prefix}${name}:\n${renderTable(entry)}`);
      else if (isRow(entry)) visit(`${prefix}${name}.`, entry);
      else fields.push({ field: `${prefix}${name}`, value: Array.isArray(entry) ? entry.join(',') || '-' : entry });
    }
  };
  visit('', record);
  return [renderTable(fields), ...sections].join('\n\n');
}

/**
 * JSON as JSON.stringify writes it, with the control characters it leaves raw (DEL, C1, bidirectional
 * overrides) written as `\u` escapes too: the same document once parsed, nothing a terminal acts on. Every
 * raw line break of JSON.stringify's output is layout (it escapes those inside strings).
 */
function formatJson(result: unknown): string {
  // JSON.stringify answers undefined for undefined, whatever its type says.
  return (JSON.stringify(result, null, 2) ?? String(result)).split('\n').map(escapeControlCharacters).join('\n');
}

/**
 * An admin answer as the user asked for it: JSON (the default, for scripts) or tables for people. An
 * answer that is one list (`{"keys": [...]}`) becomes that list's table.
 */
export function formatAdminAnswer(result: unknown, output: OutputFormat): string {
  if (output === 'json' || !isRow(result)) return formatJson(result);
  const entries = Object.entries(result);
  const [onlyEntry] = entries;
  if (entries.length === 1 && onlyEntry && isListOfRows(onlyEntry[1])) return renderTable(onlyEntry[1]);
  return renderRecord(result);
}

/** The stderr line of a refusal or failure; its message may quote a name someone else chose, so control characters show escaped. */
export function formatAdminError(message: string, code?: string): string {
  return `error: ${escapeControlCharacters(message)}${code !== undefined ? ` (${code})` : ''}`;
}
