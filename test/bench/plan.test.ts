import { describe, expect, it } from 'vitest';
import { parseBenchCommandLine } from '../../bench/lib/plan.ts';

describe('the command line of npm run bench', () => {
  it('runs the full bench without options, the quick one with --quick, profiling with --profile', () => {
    const full = parseBenchCommandLine([]);
    const quick = parseBenchCommandLine(['--quick', '--profile']);
    expect(full.kind === 'run' && [full.plan.mode, full.plan.profile]).toEqual(['full', false]);
    expect(quick.kind === 'run' && [quick.plan.mode, quick.plan.profile]).toEqual(['quick', true]);
  });

  it('prints its usage for --help or -h instead of starting a ten-minute run', () => {
    for (const flag of ['--help', '-h']) {
      const parsed = parseBenchCommandLine(['--quick', flag]);
      expect(parsed.kind).toBe('help');
      expect(parsed.kind === 'help' && parsed.text).toMatch(/^Usage: npm run bench .*--quick.*--profile/s);
    }
  });

  it('refuses a word it does not know, naming it, rather than ignoring it', () => {
    const parsed = parseBenchCommandLine(['--quik']);
    expect(parsed).toEqual({ kind: 'usage-error', text: expect.stringContaining('"--quik"') });
  });
});
