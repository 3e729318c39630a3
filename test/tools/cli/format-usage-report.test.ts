import { describe, expect, it } from 'vitest';
import { formatNanosAsUsd, formatUsageReport } from '../../../tools/cli/format-usage-report.ts';
import type { UsageReportLine } from '../../../tools/cli/local-usage-query.ts';

const line = (overrides: Partial<UsageReportLine>): UsageReportLine => ({
  day: '2025-03-01',
  projectId: 'acme',
  model: 'openai/gpt-4o',
  requests: 1,
  failed: 0,
  promptTokens: 100n,
  cachedTokens: 0n,
  cacheWriteTokens: 0n,
  completionTokens: 20n,
  webSearches: 0n,
  costNanos: 0n,
  ...overrides,
});

describe('formatUsageReport', () => {
  it('renders nano-USD exactly with up to 9 decimals', () => {
    expect(formatNanosAsUsd(1n)).toBe('0.000000001');
    expect(formatNanosAsUsd(1_500_000_000n)).toBe('1.5');
    expect(formatNanosAsUsd(90_071_992_547_409_930n)).toBe('90071992.54740993');
  });

  it('prints one line per row, then an exact total of requests, tokens and cost', () => {
    const text = formatUsageReport([
      line({ costNanos: 100_000_000n }),
      line({ day: '2025-03-02', model: 'anthropic/claude', requests: 2, promptTokens: 5n, costNanos: 200_000_000n }),
    ]);
    const rows = text.split('\n');
    expect(rows[0]).toMatch(/^day\s+project\s+model\s+requests\s+failed\s+prompt tokens\s+cached\s+cache writes\s+completion tokens\s+web searches\s+cost \(USD\)$/);
    expect(rows[2]).toMatch(/^2025-03-01\s+acme\s+openai\/gpt-4o\s+1\s+0\s+100\s+0\s+0\s+20\s+0\s+0\.1$/);
    expect(rows[3]).toMatch(/^2025-03-02\s+acme\s+anthropic\/claude\s+2\s+0\s+5\s+0\s+0\s+20\s+0\s+0\.2$/);
    // 0.1 + 0.2 in floating point would print 0.30000000000000004.
    expect(rows.at(-1)).toMatch(/^total\s+3\s+0\s+105\s+0\s+0\s+40\s+0\s+0\.3$/);
  });

  it('counts the failed requests, the cache reads and writes and the web searches an invoice prices apart, and totals them', () => {
    const text = formatUsageReport([
      line({ requests: 3, failed: 1, promptTokens: 1_000n, cachedTokens: 600n, cacheWriteTokens: 300n, webSearches: 2n }),
      line({ requests: 1, promptTokens: 10n, cachedTokens: 4n }),
    ]);
    expect(text.split('\n').at(-1)).toMatch(/^total\s+4\s+1\s+1010\s+604\s+300\s+40\s+2\s+0$/);
  });

  it('lines up the decimal points of the costs', () => {
    const text = formatUsageReport([line({ costNanos: 10_000_000_000n }), line({ costNanos: 5n })]);
    const points = text.split('\n').filter((row) => /\d$/.test(row)).map((row) => row.lastIndexOf('.'));
    const [first, ...others] = points.filter((index) => index >= 0);
    expect(others.length).toBeGreaterThan(0);
    for (const index of others) expect(index).toBe(first);
  });

  it("shows control characters in a model's name escaped, never raw", () => {
    const text = formatUsageReport([line({ model: 'openai/\u001b[2Jx\u009b' })]);
    expect(text.split('\n')[2]).toMatch(/^2025-03-01\s+acme\s+openai\/\\u001b\[2Jx\\u009b\s+1\s/);
    expect(text).not.toMatch(/[\u001b\u009b]/);
  });
});
