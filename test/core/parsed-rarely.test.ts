import { afterEach, describe, expect, it } from 'vitest';
import { loadRuntimeConfig, runtimeConfigSchema } from '../../shared/config/runtime-config.ts';
import { PARSED_RARELY } from '../../shared/core/parsed-rarely.ts';
import { keyRecordSchema } from '../../shared/core/key-record.ts';

/** zod compiles a generated parser with the Function constructor; a construct with a body is one parser. */
const OriginalFunction = globalThis.Function;
function countGeneratedParsers(): { count: () => number } {
  let generated = 0;
  globalThis.Function = new Proxy(OriginalFunction, {
    construct(target, args: string[]) {
      if ((args.at(-1) ?? '').trim() !== '') generated += 1;
      return Reflect.construct(target, args) as object;
    },
  });
  return { count: () => generated };
}

afterEach(() => {
  globalThis.Function = OriginalFunction;
});

describe('what is parsed once per cold start or cache miss', () => {
  const keyItem = { keyHash: 'a'.repeat(64), keyId: 'k1', projectId: 'p1', name: 'ci', hint: 'gw.abcd…wxyz', createdAt: '2026-11-24T00:00:00.000Z' };

  it('parses without zod generating a parser: the runtime settings and a key record', () => {
    const parsers = countGeneratedParsers();
    expect(loadRuntimeConfig({ AWS_REGION: 'eu-west-1' }).AWS_REGION).toBe('eu-west-1');
    expect(keyRecordSchema.parse(keyItem, PARSED_RARELY).projectId).toBe('p1');
    expect(parsers.count()).toBe(0);
  });

  it('still gets a generated parser where it parses without the option (what every request parses)', () => {
    const parsers = countGeneratedParsers();
    runtimeConfigSchema.parse({});
    keyRecordSchema.parse(keyItem);
    expect(parsers.count()).toBeGreaterThan(0);
  });
});
