import { describe, expect, it } from 'vitest';
import { adaptiveEffortFor } from '../../../shared/protocols/anthropic-messages/adaptive-effort.ts';

describe('adaptiveEffortFor', () => {
  const withXhigh = { type: 'adaptive', xhigh: true } as const;
  const withoutXhigh = { type: 'adaptive', xhigh: false } as const;

  it.each([
    ['minimal', 'low'],
    ['low', 'low'],
    ['medium', 'medium'],
    ['high', 'high'],
    ['xhigh', 'xhigh'],
  ])('turns reasoning effort %s into effort %s', (effort, level) => {
    expect(adaptiveEffortFor(effort, withXhigh)).toBe(level);
  });

  it('gives xhigh as max to a model without xhigh (Opus 4.6 refuses xhigh; every adaptive model has max)', () => {
    expect(adaptiveEffortFor('xhigh', withoutXhigh)).toBe('max');
    expect(adaptiveEffortFor('high', withoutXhigh)).toBe('high');
  });

  it('has no level for none, an absent effort or one it does not know', () => {
    expect(adaptiveEffortFor('none', withXhigh)).toBeUndefined();
    expect(adaptiveEffortFor(undefined, withXhigh)).toBeUndefined();
    expect(adaptiveEffortFor('ultra', withXhigh)).toBeUndefined();
  });
});
