import { describe, expect, it } from 'vitest';
import type { KeyRecord } from '../../shared/core/key-record.ts';
import type { RouteTarget } from '../../shared/core/plan-route.ts';
import type { AllowedModel, Project } from '../../shared/core/project-config.ts';
import type { LimitCharge } from '../../shared/core/ports.ts';
import { admitUsage, worstCaseNanos, type UsageEstimate } from '../../shared/pipeline/admit-usage.ts';
import type { GatewayServices } from '../../shared/pipeline/gateway-services.ts';
import { createFakeGateway, fakeProvider } from '../support/fake-gateway-services.ts';

const AT = '2025-01-01T00:00:00.000Z';
// 150 and 600 micro-USD per 1k tokens are 150 and 600 nano-USD a token; 3 micro-USD a request is 3,000 nano-USD.
const rate = { slug: 'openai/gpt-4o-mini', inputPriceMicrosPer1k: 150, outputPriceMicrosPer1k: 600, requestPriceMicros: 3 };
const target = (model: Partial<AllowedModel> = {}): RouteTarget => ({
  model: { slug: 'openai/gpt-4o-mini', provider: 'openai', model: 'gpt-4o-mini', kind: 'chat', createdAt: AT, ...model },
  provider: fakeProvider('openai', ['openai-chat']),
  rate,
});
const estimate = (changes: Partial<UsageEstimate> = {}): UsageEstimate => ({
  promptTokens: 10,
  promptTokensBound: 1_000,
  outputCap: 100,
  choices: 1,
  unitsBound: { requests: 1 },
  ...changes,
});
const key: KeyRecord = { keyHash: 'hash', keyId: 'key_1', projectId: 'acme', name: 'test', hint: 'gw.…0000', createdAt: AT };
const project = (changes: Partial<Project>): Project => ({ projectId: 'acme', name: 'acme', plan: 'active', usageInjection: false, failover: false, mcp: false, createdAt: AT, updatedAt: AT, ...changes });

describe('worstCaseNanos', () => {
  it('prices the output cap once for every choice the provider generates and bills', () => {
    expect(worstCaseNanos(estimate(), target())).toBe(1_000 * 150 + 100 * 600 + 3_000);
    expect(worstCaseNanos(estimate({ choices: 128 }), target())).toBe(1_000 * 150 + 128 * 100 * 600 + 3_000);
  });

  it("takes the model's output limit once per choice when the request sets no cap", () => {
    expect(worstCaseNanos(estimate({ outputCap: undefined, choices: 3 }), target({ maxOutputTokens: 1_000 }))).toBe(1_000 * 150 + 3 * 1_000 * 600 + 3_000);
  });

  it('counts a cap under 16 as 16, the least a translation to the Responses API sends', () => {
    expect(worstCaseNanos(estimate({ outputCap: 5 }), target())).toBe(1_000 * 150 + 16 * 600 + 3_000);
  });

  it("takes the cap raised above a thinking budget, as a translation to Claude raises it, but never past the model's maximum", () => {
    // A chat client's max_tokens 100 with reasoning_effort high (a 16,384 budget): Claude is sent 16,484.
    const unknownLimits = { model: 'a-model-of-unknown-limits' };
    expect(worstCaseNanos(estimate({ thinkingBudget: 16_384 }), target(unknownLimits))).toBe(1_000 * 150 + 16_484 * 600 + 3_000);
    expect(worstCaseNanos(estimate({ thinkingBudget: 16_384 }), target({ maxOutputTokens: 8_000 }))).toBe(1_000 * 150 + 8_000 * 600 + 3_000);
    // A cap already above the budget is not raised.
    expect(worstCaseNanos(estimate({ outputCap: 20_000, thinkingBudget: 16_384 }), target(unknownLimits))).toBe(1_000 * 150 + 20_000 * 600 + 3_000);
  });

  it('prices the prompt as one-hour cache writes where Claude can write them (twice the input price unless the rate card says)', () => {
    const claude = (rateChanges: object): RouteTarget => ({
      model: { slug: 'anthropic/claude-haiku-4-5', provider: 'anthropic', model: 'claude-haiku-4-5', kind: 'chat', createdAt: AT },
      provider: fakeProvider('anthropic', ['anthropic-messages']),
      rate: { slug: 'anthropic/claude-haiku-4-5', inputPriceMicrosPer1k: 1_000, outputPriceMicrosPer1k: 5_000, cacheWriteInputPriceMicrosPer1k: 1_250, ...rateChanges },
    });
    expect(worstCaseNanos(estimate({ unitsBound: undefined }), claude({}))).toBe(1_000 * 2_000 + 100 * 5_000);
    expect(worstCaseNanos(estimate({ unitsBound: undefined }), claude({ cacheWrite1hInputPriceMicrosPer1k: 1_500 }))).toBe(1_000 * 1_500 + 100 * 5_000);
  });

  it('prices the worst case at the long-context tier when the prompt bound passes its threshold, and at the standard prices when it cannot', () => {
    const tiered = { ...rate, longContextAboveTokens: 1_000, longContextInputPriceMicrosPer1k: 300, longContextOutputPriceMicrosPer1k: 900 };
    const tieredTarget: RouteTarget = { ...target(), rate: tiered };
    expect(worstCaseNanos(estimate({ promptTokensBound: 1_000 }), tieredTarget)).toBe(1_000 * 150 + 100 * 600 + 3_000);
    expect(worstCaseNanos(estimate({ promptTokensBound: 1_001 }), tieredTarget)).toBe(1_001 * 300 + 100 * 900 + 3_000);
  });

  it('takes the standard prices when they are the dearer, for a bound past the threshold may be a short prompt', () => {
    const cheaperWhenLong = { ...rate, longContextAboveTokens: 1_000, longContextInputPriceMicrosPer1k: 100, longContextOutputPriceMicrosPer1k: 500 };
    expect(worstCaseNanos(estimate({ promptTokensBound: 5_000 }), { ...target(), rate: cheaperWhenLong })).toBe(5_000 * 150 + 100 * 600 + 3_000);
  });
});

describe('admitUsage', () => {
  const services = (balanceNanos: number, charged: LimitCharge[] = []): GatewayServices => {
    let available = balanceNanos;
    return {
      ...createFakeGateway({ providers: [], models: [], fetch: async () => new Response() }).services,
      rateLimiter: { acquire: async (charges: readonly LimitCharge[]) => (charged.push(...charges), { allowed: true as const, counts: charges.map((charge) => charge.amount) }), adjust: async () => {} },
      balances: { reserve: async (_projectId: string, nanos: number) => (available >= nanos ? ((available -= nanos), true) : false), release: async () => {}, loadUsageTotals: async () => ({ spentNanos: 0n, requestCount: 0 }) },
    };
  };

  it('refuses with 402 a request whose choices together outrun the balance, though one choice alone would fit', async () => {
    const balance = 1_000_000;
    const admitted = { key, project: project({ prepaid: true }), targets: [target()] };
    expect(worstCaseNanos(estimate(), target())).toBeLessThan(balance);

    await expect(admitUsage(services(balance), admitted, () => estimate({ choices: 128 }))).rejects.toMatchObject({ status: 402, code: 'insufficient_balance' });
    expect(await admitUsage(services(balance), admitted, () => estimate())).toMatchObject({ prepaid: true, reservedNanos: 213_000 });
  });

  it('refuses with 402 a worst case past the exactly representable nano-USD (a huge cap times many choices), rather than failing', async () => {
    const admitted = { key, project: project({ prepaid: true }), targets: [target()] };
    const error = admitUsage(services(Number.MAX_SAFE_INTEGER), admitted, () => estimate({ outputCap: 1e12, choices: 128 }));
    await expect(error).rejects.toMatchObject({ status: 402, code: 'insufficient_balance', message: expect.stringContaining('more than any balance holds') });
  });

  it('bounds prompt the provider holds (previous_response_id, a file by id) by the model’s context length, and refuses it when that is unknown, naming the setting', async () => {
    const admitted = (model: Partial<AllowedModel>) => ({ key, project: project({ prepaid: true }), targets: [target(model)] });
    // gpt-4o-mini's known context length, 128,000 tokens, is the prompt's bound, not the body's 1,000.
    expect(worstCaseNanos(estimate({ heldPrompt: true }), target())).toBe(128_000 * 150 + 100 * 600 + 3_000);
    await expect(admitUsage(services(1_000_000), admitted({}), () => estimate({ heldPrompt: true }))).rejects.toMatchObject({
      status: 402,
      message: expect.stringContaining('with what the provider holds for it, such as a previous_response_id'),
    });
    const unknown = admitUsage(services(Number.MAX_SAFE_INTEGER), admitted({ slug: 'acme/house-model', model: 'house-model' }), () => estimate({ heldPrompt: true }));
    await expect(unknown).rejects.toMatchObject({ status: 402, message: expect.stringContaining('model allow … --context-length') });
    expect(await admitUsage(services(Number.MAX_SAFE_INTEGER), admitted({ slug: 'acme/house-model', model: 'house-model', contextLength: 8_000 }), () => estimate({ heldPrompt: true }))).toMatchObject({
      reservedNanos: 8_000 * 150 + 100 * 600 + 3_000,
    });
  });

  it('charges tokens per minute for the output cap of every choice', async () => {
    const charged: LimitCharge[] = [];
    await admitUsage(services(0, charged), { key, project: project({ tpm: 100_000 }), targets: [target()] }, () => estimate({ choices: 4 }));
    expect(charged).toEqual([expect.objectContaining({ amount: 10 + 4 * 100 })]);
  });

  it('charges tokens per minute for the cap raised above a thinking budget, as Claude is sent it', async () => {
    const charged: LimitCharge[] = [];
    await admitUsage(services(0, charged), { key, project: project({ tpm: 100_000 }), targets: [target()] }, () => estimate({ thinkingBudget: 16_384 }));
    expect(charged).toEqual([expect.objectContaining({ amount: 10 + 16_484 })]);
  });
});
