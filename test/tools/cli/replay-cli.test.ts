import { describe, expect, it } from 'vitest';
import { parseReplayArgs } from '../../../tools/cli/replay-cli.ts';
import { newOriginSecretValue } from '../../../tools/cli/rotate-origin-secret.ts';

describe('parseReplayArgs', () => {
  it('needs the bucket and the queue URL, and takes --dry-run', () => {
    expect(parseReplayArgs(['--bucket', 'usage', '--queue-url', 'https://sqs.us-east-1.amazonaws.com/1/q'])).toEqual({
      bucket: 'usage',
      queueUrl: 'https://sqs.us-east-1.amazonaws.com/1/q',
      dryRun: false,
    });
    expect(parseReplayArgs(['--bucket', 'usage', '--queue-url', 'q', '--dry-run'])?.dryRun).toBe(true);
    expect(parseReplayArgs(['--bucket', 'usage'])).toBeUndefined();
    expect(parseReplayArgs(['--bucket', 'usage', '--queue-url', 'q', '--force'])).toBeUndefined();
  });
});

describe('newOriginSecretValue', () => {
  it('draws 48 letters and digits, a new value each time', () => {
    const values = new Set(Array.from({ length: 20 }, () => newOriginSecretValue()));
    expect(values.size).toBe(20);
    for (const value of values) expect(value).toMatch(/^[A-Za-z0-9]{48}$/);
  });

  it('skips the bytes that would bias the alphabet (248–255)', () => {
    let call = 0;
    const value = newOriginSecretValue((size) => new Uint8Array(size).fill(call++ === 0 ? 255 : 1));
    expect(value).toBe('B'.repeat(48));
  });
});
