import { describe, expect, it } from 'vitest';
import { parseReplayArgs } from '../../../tools/cli/replay-cli.ts';

describe('parseReplayArgs', () => {
  it('needs the bucket and the queue URL, and takes --dry-run', () => {
    expect(parseReplayArgs(['--bucket', 'usage', '--queue-url', 'https://sqs.us-east-1.amazonaws.com/1/q'])).toEqual({
      kind: 'replay',
      bucket: 'usage',
      queueUrl: 'https://sqs.us-east-1.amazonaws.com/1/q',
      dryRun: false,
    });
    expect(parseReplayArgs(['--bucket', 'usage', '--queue-url', 'q', '--dry-run'])).toMatchObject({ kind: 'replay', dryRun: true });
    expect(parseReplayArgs(['--bucket', 'usage'])).toEqual({ kind: 'usage-error', message: 'both --bucket and --queue-url are required' });
    expect(parseReplayArgs(['--bucket', 'usage', '--queue-url', 'q', '--force'])).toMatchObject({ kind: 'usage-error', message: expect.stringMatching(/--force/) });
  });

  it('answers -h and --help with the help, whatever else is on the line', () => {
    expect(parseReplayArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseReplayArgs(['-h'])).toEqual({ kind: 'help' });
    expect(parseReplayArgs(['--bucket', 'usage', '--help'])).toEqual({ kind: 'help' });
  });
});
