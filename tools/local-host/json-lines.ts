import { existsSync, readFileSync } from 'node:fs';
import type * as z from 'zod';

/*
 * The local host's crash logs (the usage journal, the store's undo log) are files of JSON lines, each
 * appended with one write call: in the OS's buffers at once, so a killed process loses none. Only the last
 * line can be torn, by a crash in the middle of its write.
 */

/** One entry as a line of its log. */
export function jsonLine(entry: unknown): string {
  return `${JSON.stringify(entry)}\n`;
}

/** The entries of the log at `path` in order (none when there is no file), skipping a torn or unknown line. */
export function readJsonLines<Schema extends z.ZodType>(path: string, schema: Schema): z.infer<Schema>[] {
  if (!existsSync(path)) return [];
  const entries: z.infer<Schema>[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      entries.push(schema.parse(JSON.parse(line)));
    } catch {
      // a torn last line: the write it belonged to had not finished
    }
  }
  return entries;
}
