import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import * as z from 'zod';
import { jsonLine, readJsonLines } from './json-lines.ts';

/** What one item held before a transaction wrote it: restored should the transaction not finish. */
const beforeImageSchema = z.object({ tableName: z.string(), key: z.record(z.string(), z.unknown()), item: z.record(z.string(), z.unknown()).optional() });
export type BeforeImage = z.infer<typeof beforeImageSchema>;

const entrySchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('begin'), id: z.number(), items: z.array(beforeImageSchema) }),
  z.object({ op: z.literal('end'), id: z.number() }),
]);

/**
 * Makes the emulated transactions atomic across a crash, as DynamoDB's are: before a transaction writes,
 * the before-images of its items are appended here; once it committed or rolled back, its end. A process
 * killed in between leaves a begin without an end, and the store is put back to those images when it
 * opens again. One write call per entry (into the OS's buffers: a killed process loses nothing).
 */
export class TransactionUndoLog {
  private readonly fd: number;
  private nextId = 1;
  private readonly open = new Set<number>();

  private constructor(path: string) {
    this.fd = openSync(path, 'a', 0o600);
  }

  /** Opens the log at `path`: the before-images of every transaction a previous run left unfinished. */
  static open(path: string): { log: TransactionUndoLog; unfinished: BeforeImage[][] } {
    const unfinished = unfinishedIn(readJsonLines(path, entrySchema));
    return { log: new TransactionUndoLog(path), unfinished };
  }

  /** The unfinished transactions were undone: the log starts again. */
  clear(): void {
    if (this.open.size === 0) ftruncateSync(this.fd, 0);
  }

  begin(items: BeforeImage[]): number {
    const id = this.nextId++;
    this.open.add(id);
    writeSync(this.fd, jsonLine({ op: 'begin', id, items }));
    return id;
  }

  end(id: number): void {
    this.open.delete(id);
    if (this.open.size === 0) ftruncateSync(this.fd, 0);
    else writeSync(this.fd, jsonLine({ op: 'end', id }));
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** The before-images of each transaction that began and never ended (a torn last line had not begun writing). */
function unfinishedIn(entries: readonly z.infer<typeof entrySchema>[]): BeforeImage[][] {
  const begun = new Map<number, BeforeImage[]>();
  for (const entry of entries) {
    if (entry.op === 'begin') begun.set(entry.id, entry.items);
    else begun.delete(entry.id);
  }
  return [...begun.values()];
}
