import { describe, expect, it } from 'vitest';
import { CoolDown } from '../../shared/core/cool-down.ts';

function manualClock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

describe('CoolDown', () => {
  it('does not cool down a target that never failed', () => {
    expect(new CoolDown(manualClock()).isCoolingDown('openai/gpt-4o-mini')).toBe(false);
  });

  it('cools a failed target down for the window, then lets it go', () => {
    const clock = manualClock();
    const coolDown = new CoolDown(clock, 5_000);
    coolDown.markFailed('openai/gpt-4o-mini');

    clock.advance(4_999);
    expect(coolDown.isCoolingDown('openai/gpt-4o-mini')).toBe(true);
    clock.advance(1);
    expect(coolDown.isCoolingDown('openai/gpt-4o-mini')).toBe(false);
  });

  it('uses a 30-second window by default', () => {
    const clock = manualClock();
    const coolDown = new CoolDown(clock);
    coolDown.markFailed('openai/gpt-4o-mini');
    clock.advance(29_999);
    expect(coolDown.isCoolingDown('openai/gpt-4o-mini')).toBe(true);
    clock.advance(1);
    expect(coolDown.isCoolingDown('openai/gpt-4o-mini')).toBe(false);
  });

  it('keeps targets apart', () => {
    const coolDown = new CoolDown(manualClock(), 5_000);
    coolDown.markFailed('openai/gpt-4o-mini');
    expect(coolDown.isCoolingDown('openrouter/openai/gpt-4o-mini')).toBe(false);
  });

  it('restarts the window when a target fails again', () => {
    const clock = manualClock();
    const coolDown = new CoolDown(clock, 5_000);
    coolDown.markFailed('openai/gpt-4o-mini');
    clock.advance(4_000);
    coolDown.markFailed('openai/gpt-4o-mini');
    clock.advance(4_000);
    expect(coolDown.isCoolingDown('openai/gpt-4o-mini')).toBe(true);
    clock.advance(1_000);
    expect(coolDown.isCoolingDown('openai/gpt-4o-mini')).toBe(false);
  });

  it('cools a target down again after an earlier window expired', () => {
    const clock = manualClock();
    const coolDown = new CoolDown(clock, 5_000);
    coolDown.markFailed('openai/gpt-4o-mini');
    clock.advance(6_000);
    expect(coolDown.isCoolingDown('openai/gpt-4o-mini')).toBe(false);
    coolDown.markFailed('openai/gpt-4o-mini');
    expect(coolDown.isCoolingDown('openai/gpt-4o-mini')).toBe(true);
  });
});
