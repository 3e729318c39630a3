import { closeSync, ftruncateSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import * as z from 'zod';
import { jsonLine, readJsonLines } from './json-lines.ts';

/**
 * The local usage queue's durability, as SQS is durable in AWS: every usage record is appended to a
 * journal before the answer it meters ends, and marked done once the writer applied it (or dead-lettered
 * it). An append is one write call into the OS's buffers: it survives the process being killed (no fsync
 * per request; a machine crash may lose the last moments, as the design accepts). After a crash, what the
 * journal holds and was not done is delivered again; the writer applies each record id once, so nothing is
 * counted twice.
 *
 * A request whose upstream answered also leaves an `expect` entry first: should the process die before the
 * request's record is sent (a stream cut off mid-way), the provisional record is delivered in its place.
 */
const entrySchema = z.preprocess(
  // A record is written as JSON inside its line (`record`), not as a string of JSON (`body`, as journals of
  // earlier versions hold it), which would escape its every quote a second time on the request path.
  (entry) => (typeof entry === 'object' && entry !== null && 'record' in entry ? { ...entry, body: JSON.stringify(entry.record) } : entry),
  z.discriminatedUnion('op', [
    z.object({ op: z.literal('send'), id: z.string(), recordId: z.string(), body: z.string() }),
    z.object({ op: z.literal('expect'), recordId: z.string(), body: z.string() }),
    z.object({ op: z.literal('done'), id: z.string() }),
  ]),
);
type Entry = z.infer<typeof entrySchema>;
type RecordEntry = Extract<Entry, { body: string }>;

/** What a journal held that was not done: messages to deliver again, with their ids. */
export interface PendingMessage {
  id: string;
  body: string;
}

/**
 * Past this size the journal is rewritten with only what is still open; after a rewrite, not before it has
 * doubled again, so that a large backlog is not rewritten on every record the writer finishes.
 */
const COMPACT_AFTER_BYTES = 8 * 1024 * 1024;

export class UsageJournal {
  private fd: number;
  private bytes = 0;
  private compactAt = COMPACT_AFTER_BYTES;
  /** Expected records not sent yet, by record id (their provisional bodies). */
  private readonly expected = new Map<string, string>();
  /** Sent messages not done yet. */
  private readonly open = new Map<string, { recordId: string; body: string }>();

  private readonly path: string;

  private constructor(path: string) {
    this.path = path;
    this.fd = openSync(path, 'a', 0o600);
  }

  /**
   * Opens the journal at `path`, returning what it held undone: sent messages, and expected records whose
   * request never sent its own (delivered as they were expected). The file is rewritten to hold just those.
   */
  static open(path: string, newId: () => string): { journal: UsageJournal; pending: PendingMessage[] } {
    const pending = undone(readJsonLines(path, entrySchema), newId);
    writeFileSync(`${path}.tmp`, pending.map((message) => recordLine({ op: 'send', id: message.id, recordId: message.recordId, body: message.body })).join(''), { mode: 0o600 });
    renameSync(`${path}.tmp`, path);
    const journal = new UsageJournal(path);
    for (const message of pending) journal.open.set(message.id, { recordId: message.recordId, body: message.body });
    return { journal, pending };
  }

  expect(recordId: string, body: string): void {
    this.expected.set(recordId, body);
    this.append({ op: 'expect', recordId, body });
  }

  sent(id: string, recordId: string, body: string): void {
    this.expected.delete(recordId);
    this.open.set(id, { recordId, body });
    this.append({ op: 'send', id, recordId, body });
  }

  /** The messages were applied by the writer, or dead-lettered: they need not be delivered again (one write for all). */
  done(...ids: string[]): void {
    if (ids.length === 0) return;
    for (const id of ids) this.open.delete(id);
    // Nothing left to keep: start the file again, so it stays small (or rewrite it when it grew large anyway).
    if (this.open.size === 0 && this.expected.size === 0) {
      ftruncateSync(this.fd, 0);
      this.bytes = 0;
      this.compactAt = COMPACT_AFTER_BYTES;
      return;
    }
    this.bytes += writeSync(this.fd, ids.map((id) => jsonLine({ op: 'done', id })).join(''));
    if (this.bytes > this.compactAt) this.compact();
  }

  private compact(): void {
    const live = [
      ...[...this.expected].map(([recordId, body]) => recordLine({ op: 'expect', recordId, body })),
      ...[...this.open].map(([id, message]) => recordLine({ op: 'send', id, ...message })),
    ].join('');
    writeFileSync(`${this.path}.tmp`, live, { mode: 0o600 });
    renameSync(`${this.path}.tmp`, this.path);
    closeSync(this.fd);
    this.fd = openSync(this.path, 'a', 0o600);
    this.bytes = Buffer.byteLength(live);
    this.compactAt = Math.max(COMPACT_AFTER_BYTES, 2 * this.bytes);
  }

  close(): void {
    closeSync(this.fd);
  }

  private append(entry: RecordEntry): void {
    this.bytes += writeSync(this.fd, recordLine(entry));
  }

  get file(): string {
    return this.path;
  }
}

/** An entry as its line, the record's JSON (`body`, an object's) written in place as `record`. */
function recordLine({ body, ...head }: RecordEntry): string {
  return `${JSON.stringify(head).slice(0, -1)},"record":${body}}\n`;
}

/** Replays a journal's entries: sends not done, and expectations never sent (a torn last line is ignored). */
function undone(entries: readonly Entry[], newId: () => string): Array<PendingMessage & { recordId: string }> {
  const sent = new Map<string, { recordId: string; body: string }>();
  const expected = new Map<string, string>();
  const sentRecords = new Set<string>();
  for (const parsed of entries) {
    if (parsed.op === 'expect') expected.set(parsed.recordId, parsed.body);
    else if (parsed.op === 'send') {
      sent.set(parsed.id, { recordId: parsed.recordId, body: parsed.body });
      sentRecords.add(parsed.recordId);
    } else sent.delete(parsed.id);
  }
  const pending = [...sent].map(([id, message]) => ({ id, ...message }));
  for (const [recordId, body] of expected) if (!sentRecords.has(recordId)) pending.push({ id: newId(), recordId, body });
  return pending;
}
