import { appendFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageJournal } from '../../../tools/local-host/usage-journal.ts';

let dir: string;
let path: string;
let ids = 0;
const newId = () => `new-${++ids}`;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'usage-journal-'));
  path = join(dir, 'usage-queue.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What a restart on the journal would deliver again. */
function reopen() {
  const { journal, pending } = UsageJournal.open(path, newId);
  journal.close();
  return pending.map(({ id, body }) => ({ id, body }));
}

describe('UsageJournal', () => {
  it('delivers again after a restart what was sent and not done, and nothing that was done', () => {
    const { journal } = UsageJournal.open(path, newId);
    journal.sent('m1', 'rec-1', '{"a":1}');
    journal.sent('m2', 'rec-2', '{"a":2}');
    journal.done('m1');
    journal.close();
    expect(reopen()).toEqual([{ id: 'm2', body: '{"a":2}' }]);
  });

  it('marks a whole batch done at once, keeping only what the batch did not include', () => {
    const { journal } = UsageJournal.open(path, newId);
    for (const index of [1, 2, 3]) journal.sent(`m${index}`, `rec-${index}`, `{"a":${index}}`);
    journal.done('m1', 'm3');
    journal.close();
    expect(reopen()).toEqual([{ id: 'm2', body: '{"a":2}' }]);
  });

  it("delivers a request's provisional record when the request never sent its own (a crash mid-stream), and only then", () => {
    const { journal } = UsageJournal.open(path, newId);
    journal.expect('rec-cut', '{"provisional":true}');
    journal.expect('rec-finished', '{"provisional":true,"finished":1}');
    journal.sent('m1', 'rec-finished', '{"real":1}');
    journal.close();
    const pending = reopen();
    expect(pending.map((message) => message.body).sort()).toEqual(['{"provisional":true}', '{"real":1}']);
  });

  it('writes each record as JSON inside its line, escaped once', async () => {
    const { journal } = UsageJournal.open(path, newId);
    journal.expect('rec-1', '{"quote":"a \\"b\\""}');
    journal.sent('m1', 'rec-1', '{"quote":"a \\"b\\"","final":true}');
    journal.close();
    const lines = (await readFile(path, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual([
      { op: 'expect', recordId: 'rec-1', record: { quote: 'a "b"' } },
      { op: 'send', id: 'm1', recordId: 'rec-1', record: { quote: 'a "b"', final: true } },
    ]);
    expect(reopen()).toEqual([{ id: 'm1', body: '{"quote":"a \\"b\\"","final":true}' }]);
  });

  it('delivers what a journal of an earlier version holds, its records written as strings', async () => {
    await appendFile(path, `${JSON.stringify({ op: 'send', id: 'm1', recordId: 'rec-1', body: '{"a":1}' })}\n${JSON.stringify({ op: 'expect', recordId: 'rec-2', body: '{"a":2}' })}\n`);
    expect(reopen()).toEqual([
      { id: 'm1', body: '{"a":1}' },
      { id: expect.stringMatching(/^new-/), body: '{"a":2}' },
    ]);
  });

  it('ignores a torn last line (a crash in the middle of a write)', async () => {
    const { journal } = UsageJournal.open(path, newId);
    journal.sent('m1', 'rec-1', '{"a":1}');
    journal.close();
    await appendFile(path, '{"op":"send","id":"m2","recor');
    expect(reopen()).toEqual([{ id: 'm1', body: '{"a":1}' }]);
  });

  it('empties the file once everything sent is done and no request is in flight', async () => {
    const { journal } = UsageJournal.open(path, newId);
    journal.sent('m1', 'rec-1', '{"a":1}');
    journal.done('m1');
    journal.close();
    expect((await stat(path)).size).toBe(0);
    expect(await readFile(path, 'utf8')).toBe('');
  });

  it('keeps what it replayed until it is done: a second crash loses nothing either', () => {
    const first = UsageJournal.open(path, newId);
    first.journal.sent('m1', 'rec-1', '{"a":1}');
    first.journal.close();
    expect(reopen()).toEqual([{ id: 'm1', body: '{"a":1}' }]);
    expect(reopen()).toEqual([{ id: 'm1', body: '{"a":1}' }]);
  });
  it('rewrites a large backlog once when it passes the size limit, not again on every record the writer finishes', async () => {
    const { journal } = UsageJournal.open(path, newId);
    const body = JSON.stringify({ padding: 'x'.repeat(1024 * 1024) });
    for (let index = 0; index < 10; index += 1) journal.sent(`m${index}`, `rec-${index}`, body);
    journal.done('m0'); // 10 MiB written, 9 still open: rewritten with those nine
    const afterRewrite = (await stat(path)).size;
    expect(afterRewrite).toBeLessThan(10 * 1024 * 1024);
    for (let index = 1; index < 5; index += 1) journal.done(`m${index}`);
    // Only their `done` lines were appended: another rewrite would have dropped a megabyte each.
    expect((await stat(path)).size).toBeGreaterThan(afterRewrite);
    journal.close();
    expect(reopen().map(({ id }) => id)).toEqual(['m5', 'm6', 'm7', 'm8', 'm9']);
  });
});
