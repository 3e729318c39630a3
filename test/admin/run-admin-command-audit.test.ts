import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { START_TIME, startAdminHarness, type AdminHarness, type CreatedKeyView } from './admin-harness.ts';
import { runAdminCommand } from '../../shared/admin/run-admin-command.ts';
import type { AuditEntry } from '../../shared/core/audit-entry.ts';

interface AuditView {
  entries: Array<{ at: string; actor: string; command: string; details: Record<string, unknown> }>;
}

describe('runAdminCommand: the audit trail', () => {
  let admin: AdminHarness;

  beforeAll(async () => {
    admin = await startAdminHarness();
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('records who made each change, what and when, newest first; reads leave no entry', async () => {
    await admin.ok({ command: 'project.create', projectId: 'audited', name: 'Audited' });
    admin.setTime('2025-01-03T00:00:00.000Z');
    const key = await admin.ok<CreatedKeyView>({ command: 'key.create', projectId: 'audited', name: 'laptop', member: 'alice@example.com' });
    admin.setTime('2025-01-04T00:00:00.000Z');
    await admin.ok({ command: 'key.revoke', projectId: 'audited', keyId: key.id });
    admin.setTime(START_TIME);
    await admin.ok({ command: 'key.list', projectId: 'audited' });
    await admin.ok({ command: 'project.get', projectId: 'audited' });

    const trail = await admin.ok<AuditView>({ command: 'audit.list', projectId: 'audited' });

    expect(trail.entries).toEqual([
      { at: '2025-01-04T00:00:00.000Z', actor: 'admin CLI', command: 'key.revoke', details: { keyId: key.id } },
      { at: '2025-01-03T00:00:00.000Z', actor: 'admin CLI', command: 'key.create', details: { name: 'laptop', member: 'alice@example.com', keyId: key.id } },
      { at: START_TIME, actor: 'admin CLI', command: 'project.create', details: { name: 'Audited' } },
    ]);
    expect(JSON.stringify(trail)).not.toContain(key.key);
  });

  it('names the console user who made a change', async () => {
    await admin.ok({ command: 'project.create', projectId: 'by-console' });
    // Later than the creation: entries of the same millisecond have no order.
    admin.setTime('2025-01-06T00:00:00.000Z');
    const answer = await runAdminCommand(
      admin.services,
      { command: 'member.add', projectId: 'by-console', member: 'bob@example.com' },
      { kind: 'console', member: 'alice@example.com' },
    );
    expect(answer.ok).toBe(true);

    const trail = await admin.ok<AuditView>({ command: 'audit.list', projectId: 'by-console', limit: 1 });
    admin.setTime(START_TIME);
    expect(trail.entries).toEqual([{ at: '2025-01-06T00:00:00.000Z', actor: 'alice@example.com', command: 'member.add', details: { member: 'bob@example.com', role: 'member' } }]);
  });

  it('never writes a provider key into the trail, only that one was set', async () => {
    await admin.ok({ command: 'project.create', projectId: 'secretive' });
    admin.setTime('2025-01-05T00:00:00.000Z');
    await admin.ok({ command: 'provider.set', projectId: 'secretive', provider: 'openai', apiKey: 'sk-very-secret-upstream-key' });
    admin.setTime(START_TIME);

    const trail = await admin.ok<AuditView>({ command: 'audit.list', projectId: 'secretive', limit: 1 });

    expect(trail.entries[0]).toMatchObject({ command: 'provider.set', details: { provider: 'openai', apiKey: '(set)' } });
    expect(JSON.stringify(await admin.scan('admin-test-projects'))).not.toContain('sk-very-secret-upstream-key');
  });

  it("never writes an MCP server's header values into the trail, only their names", async () => {
    await admin.ok({ command: 'project.create', projectId: 'bridged' });
    admin.setTime('2025-01-07T00:00:00.000Z');
    await admin.ok({ command: 'mcp.add', projectId: 'bridged', name: 'docs', url: 'https://mcp.example.com/mcp', headers: [{ name: 'Authorization', value: 'Bearer mcp-very-secret-token' }] });
    admin.setTime(START_TIME);

    const trail = await admin.ok<AuditView>({ command: 'audit.list', projectId: 'bridged', limit: 1 });

    expect(trail.entries[0]).toMatchObject({ command: 'mcp.add', details: { name: 'docs', headers: [{ name: 'Authorization', value: '(set)' }] } });
    expect(JSON.stringify(await admin.scan('admin-test-projects'))).not.toContain('mcp-very-secret-token');
  });

  it('leaves no entry for a read: get and every list', async () => {
    await admin.ok({ command: 'project.create', projectId: 'readings' });
    for (const event of [
      { command: 'project.get', projectId: 'readings' },
      { command: 'project.list' },
      { command: 'member.list', projectId: 'readings' },
      { command: 'provider.list', projectId: 'readings' },
      { command: 'model.list', projectId: 'readings' },
      { command: 'mcp.list', projectId: 'readings' },
      { command: 'ratecard.list' },
      { command: 'key.list', projectId: 'readings' },
      { command: 'audit.list', projectId: 'readings' },
    ]) {
      await admin.ok(event);
    }

    expect((await admin.ok<AuditView>({ command: 'audit.list', projectId: 'readings' })).entries.map((entry) => entry.command)).toEqual(['project.create']);
    expect(await admin.services.audit.listRecent('@org', 10)).toEqual([]);
  });

  it('leaves no entry for a refused change', async () => {
    await admin.ok({ command: 'project.create', projectId: 'refusals' });
    await admin.refused({ command: 'key.revoke', projectId: 'refusals', keyId: 'key_missing0000000' });

    expect((await admin.ok<AuditView>({ command: 'audit.list', projectId: 'refusals' })).entries.map((entry) => entry.command)).toEqual(['project.create']);
  });

  it('answers audit_failed, saying the change was made, when the trail cannot be written', async () => {
    const failingTrail = {
      append: async (_entry: AuditEntry) => {
        throw new Error('store unavailable');
      },
      listRecent: async () => [],
    };
    const refusal = await admin.refused({ command: 'project.create', projectId: 'unaudited' }, { audit: failingTrail });

    expect(refusal).toEqual({
      status: 500,
      code: 'audit_failed',
      message: 'The change was made but could not be written to the audit trail (Error: store unavailable).',
    });
    expect(await admin.projects.loadProjectConfig('unaudited')).toBeDefined();
  });

  it('writes the entry of a change whose result cannot be read back, and answers change_not_shown saying it was made', async () => {
    await admin.ok({ command: 'project.create', projectId: 'unreadable' });
    admin.setTime('2025-01-08T00:00:00.000Z');
    const unreadableTotals = {
      ...admin.services.balances,
      loadUsageTotals: async () => {
        throw new Error('usage item unreadable');
      },
    };

    const refusal = await admin.refused({ command: 'project.update', projectId: 'unreadable', plan: 'inactive' }, { balances: unreadableTotals });
    admin.setTime(START_TIME);

    expect(refusal).toEqual({
      status: 500,
      code: 'change_not_shown',
      message: 'The change was made and written to the audit trail, but reading it back failed (Error: usage item unreadable).',
    });
    expect((await admin.projects.loadProjectConfig('unreadable'))?.project.plan).toBe('inactive');
    const trail = await admin.ok<AuditView>({ command: 'audit.list', projectId: 'unreadable', limit: 1 });
    expect(trail.entries[0]).toMatchObject({ command: 'project.update', details: { plan: 'inactive' } });
  });
});
