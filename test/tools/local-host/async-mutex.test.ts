import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { AsyncMutex } from '../../../tools/local-host/async-mutex.ts';

describe('AsyncMutex', () => {
  it('runs tasks one at a time, in the order they asked', async () => {
    const mutex = new AsyncMutex();
    const events: string[] = [];
    const task = (name: string, delayMs: number) => async () => {
      events.push(`${name} start`);
      await sleep(delayMs);
      events.push(`${name} end`);
      return name;
    };

    const results = await Promise.all([mutex.run(task('slow', 30)), mutex.run(task('fast', 1)), mutex.run(task('last', 5))]);

    expect(results).toEqual(['slow', 'fast', 'last']);
    expect(events).toEqual(['slow start', 'slow end', 'fast start', 'fast end', 'last start', 'last end']);
  });

  it('lets the next task run after one fails, and reports the failure to its caller only', async () => {
    const mutex = new AsyncMutex();

    const failing = mutex.run(async () => {
      throw new Error('step failed');
    });
    const next = mutex.run(async () => 'ran');

    await expect(failing).rejects.toThrow('step failed');
    await expect(next).resolves.toBe('ran');
  });
});
