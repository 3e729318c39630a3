import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleRecord } from '../support/sample-usage-record.ts';
import { startAdminHarness, type AdminHarness } from './admin-harness.ts';

interface BalanceView {
  spent_usd: string;
  request_count: number;
  balance_usd: string | null;
  reserved_usd: string | null;
}

let admin: AdminHarness;

beforeAll(async () => {
  admin = await startAdminHarness();
});
afterAll(async () => {
  await admin.close();
});

describe('runAdminCommand: project balance', () => {
  it('starts a project postpaid, with no balance and nothing spent', async () => {
    const project = await admin.ok<BalanceView>({ command: 'project.create', projectId: 'postpaid' });
    expect(project).toMatchObject({ spent_usd: '0', request_count: 0, balance_usd: null });
  });

  it('sets a balance, adds credit to it, and removes it again with "none"', async () => {
    await admin.ok({ command: 'project.create', projectId: 'prepaid' });

    const set = await admin.ok<BalanceView>({ command: 'project.update', projectId: 'prepaid', balanceUsd: '25' });
    const credited = await admin.ok<BalanceView>({ command: 'project.update', projectId: 'prepaid', creditUsd: '0.000000005' });
    const removed = await admin.ok<BalanceView>({ command: 'project.update', projectId: 'prepaid', balanceUsd: 'none' });

    expect(set.balance_usd).toBe('25');
    expect(credited.balance_usd).toBe('25.000000005');
    expect(removed.balance_usd).toBeNull();
  });

  it('shows the balance net of what the writer settled, exactly', async () => {
    await admin.ok({ command: 'project.create', projectId: 'metered' });
    await admin.ok({ command: 'project.update', projectId: 'metered', balanceUsd: '1' });
    const ledger = admin.usageLedger();
    await ledger.recordOnce(sampleRecord({ projectId: 'metered', costNanos: 150, prepaid: true, reservedNanos: 0 }));
    await ledger.recordOnce(sampleRecord({ projectId: 'metered', costNanos: 600, prepaid: true, reservedNanos: 1000 }));
    // The second request's reservation was taken at admission; settling gives back the difference.
    await admin.services.balances.reserve('metered', 1000);

    const project = await admin.ok<BalanceView>({ command: 'project.get', projectId: 'metered' });

    expect(project).toMatchObject({ spent_usd: '0.00000075', request_count: 2, balance_usd: '0.99999925' });
  });

  it('shows what the reservations of requests in flight hold, back to zero once they settle', async () => {
    await admin.ok({ command: 'project.create', projectId: 'in-flight' });
    await admin.ok({ command: 'project.update', projectId: 'in-flight', balanceUsd: '1' });
    await admin.services.balances.reserve('in-flight', 2_500);

    expect(await admin.ok<BalanceView>({ command: 'project.get', projectId: 'in-flight' })).toMatchObject({ balance_usd: '0.9999975', reserved_usd: '0.0000025' });
    await admin.usageLedger().recordOnce(sampleRecord({ projectId: 'in-flight', costNanos: 1_000, prepaid: true, reservedNanos: 2_500 }));
    expect(await admin.ok<BalanceView>({ command: 'project.get', projectId: 'in-flight' })).toMatchObject({ balance_usd: '0.999999', reserved_usd: '0' });
  });

  it('keeps the settled spend when a balance is set after usage', async () => {
    await admin.ok({ command: 'project.create', projectId: 'late-balance' });
    await admin.usageLedger().recordOnce(sampleRecord({ projectId: 'late-balance', costNanos: 2_000_000_000 }));

    const project = await admin.ok<BalanceView>({ command: 'project.update', projectId: 'late-balance', balanceUsd: '10' });

    expect(project).toMatchObject({ spent_usd: '2', balance_usd: '10' });
  });

  it('shows a spend beyond 2^53 nano-USD (about 9 million USD) exactly', async () => {
    await admin.ok({ command: 'project.create', projectId: 'large-spend' });
    await admin.usageLedger().recordAll([
      sampleRecord({ projectId: 'large-spend', costNanos: 5_000_000_000_000_001 }),
      sampleRecord({ projectId: 'large-spend', costNanos: 5_000_000_000_000_000 }),
    ]);

    const project = await admin.ok<BalanceView>({ command: 'project.get', projectId: 'large-spend' });

    expect(project).toMatchObject({ spent_usd: '10000000.000000001', request_count: 2, balance_usd: null });
  });

  it('sets and credits balances beyond 2^53 nano-USD exactly, up to 9 whole digits', async () => {
    await admin.ok({ command: 'project.create', projectId: 'large-balance' });

    await admin.ok({ command: 'project.update', projectId: 'large-balance', balanceUsd: '5000000' });
    const credited = await admin.ok<BalanceView>({ command: 'project.update', projectId: 'large-balance', creditUsd: '5000000.000000001' });
    const set = await admin.ok<BalanceView>({ command: 'project.update', projectId: 'large-balance', balanceUsd: '123456789.123456789' });
    const largest = await admin.ok<BalanceView>({ command: 'project.update', projectId: 'large-balance', balanceUsd: '999999999.999999999' });

    expect(credited.balance_usd).toBe('10000000.000000001');
    expect(set.balance_usd).toBe('123456789.123456789');
    expect(largest.balance_usd).toBe('999999999.999999999');
  });

  it('refuses a balance or credit of a billion USD or more with 400, naming the bound, and changes nothing', async () => {
    await admin.ok({ command: 'project.create', projectId: 'too-large' });
    await admin.ok({ command: 'project.update', projectId: 'too-large', balanceUsd: '10' });

    const balance = await admin.refused({ command: 'project.update', projectId: 'too-large', balanceUsd: '1000000000' });
    const credit = await admin.refused({ command: 'project.update', projectId: 'too-large', creditUsd: '1000000000.5' });

    expect(balance).toEqual({ status: 400, code: 'invalid_command', message: 'balanceUsd: amounts are at most 999999999.999999999 USD' });
    expect(credit).toEqual({ status: 400, code: 'invalid_command', message: 'creditUsd: amounts are at most 999999999.999999999 USD' });
    await expect(admin.ok<BalanceView>({ command: 'project.get', projectId: 'too-large' })).resolves.toMatchObject({ balance_usd: '10' });
  });

  it('refuses an amount that is not a USD decimal', async () => {
    await admin.ok({ command: 'project.create', projectId: 'bad-amount' });
    const refusal = await admin.refused({ command: 'project.update', projectId: 'bad-amount', balanceUsd: '-3' });
    expect(refusal).toMatchObject({ status: 400, code: 'invalid_command' });
  });
});

describe('runAdminCommand: cached-input prices', () => {
  it('stores a project cached-input price beside its input and output prices', async () => {
    await admin.ok({ command: 'project.create', projectId: 'cached-prices' });
    await admin.ok({ command: 'provider.set', projectId: 'cached-prices', provider: 'openai', apiKey: 'sk-cached-prices' });
    const project = await admin.ok<{ models: Array<Record<string, unknown>> }>({
      command: 'model.allow',
      projectId: 'cached-prices',
      slug: 'openai/gpt-4o-mini',
      inputMicrosPer1k: 150,
      outputMicrosPer1k: 600,
      cachedInputMicrosPer1k: 75,
    });
    expect(project.models[0]).toMatchObject({ input_price_micros_per_1k: 150, output_price_micros_per_1k: 600, cached_input_price_micros_per_1k: 75 });
  });
});
