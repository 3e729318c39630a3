import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyRecord } from '../../shared/core/key-record.ts';
import { START_TIME, startAdminHarness, TABLES, type AdminHarness, type CreatedKeyView, type KeyView } from './admin-harness.ts';

function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

describe('runAdminCommand: project keys', () => {
  let admin: AdminHarness;

  beforeAll(async () => {
    admin = await startAdminHarness();
  });
  afterAll(async () => {
    await admin?.close();
  });

  async function createKey(projectId: string, name?: string): Promise<CreatedKeyView> {
    return admin.ok<CreatedKeyView>({ command: 'key.create', projectId, ...(name ? { name } : {}) });
  }

  it('creates a gw. key of 43 base62 characters, shown once with a hint of its ends', async () => {
    await admin.ok({ command: 'project.create', projectId: 'minting' });

    const created = await createKey('minting', 'ci');

    expect(created.key).toMatch(/^gw\.[0-9A-Za-z]{43}$/);
    expect(created).toEqual({
      id: expect.stringMatching(/^key_[0-9A-Za-z]{16}$/),
      project_id: 'minting',
      name: 'ci',
      hint: `${created.key.slice(0, 7)}…${created.key.slice(-4)}`,
      created_at: START_TIME,
      revoked_at: null,
      status: 'active',
      disabled_by: null,
      member: null,
      rpm: null,
      last_used_at: null,
      mcp_servers: null,
      mcp_tools: null,
      key: created.key,
    });
  });

  it('names a key "default" when no name is given, and never hands out the same key twice', async () => {
    await admin.ok({ command: 'project.create', projectId: 'defaults' });

    const first = await createKey('defaults');
    const second = await createKey('defaults');

    expect(first.name).toBe('default');
    expect(second.key).not.toBe(first.key);
    expect(second.id).not.toBe(first.id);
  });

  it('stores only the SHA-256 of the key', async () => {
    await admin.ok({ command: 'project.create', projectId: 'hashed' });
    const created = await createKey('hashed', 'hashed-key');

    const record = await admin.keys.findByHash(sha256(created.key));

    expect(record).toEqual({
      keyHash: sha256(created.key),
      keyId: created.id,
      projectId: 'hashed',
      name: 'hashed-key',
      hint: created.hint,
      createdAt: START_TIME,
    });
    const stored = (await admin.scan(TABLES.keys)).find((item) => item.keyId === created.id);
    expect(stored?.keyHash).toBe(sha256(created.key));
    expect(Object.values(stored ?? {})).not.toContain(created.key);
    expect(JSON.stringify(stored)).not.toContain(created.key.slice(3));
  });

  it('refuses a key for an unknown project with 404 project_not_found', async () => {
    expect(await admin.refused({ command: 'key.create', projectId: 'keyless' })).toMatchObject({ status: 404, code: 'project_not_found' });
    expect((await admin.scan(TABLES.keys)).some((item) => item.projectId === 'keyless')).toBe(false);
  });

  it("lists a project's keys oldest first, never with the key or its hash", async () => {
    await admin.ok({ command: 'project.create', projectId: 'listing' });
    await admin.ok({ command: 'project.create', projectId: 'neighbour' });
    admin.setTime('2025-02-02T00:00:00.000Z');
    const newer = await createKey('listing', 'newer');
    admin.setTime('2025-01-15T00:00:00.000Z');
    const older = await createKey('listing', 'older');
    admin.setTime(START_TIME);
    await createKey('neighbour', 'not-mine');

    const listed = await admin.ok<{ keys: KeyView[] }>({ command: 'key.list', projectId: 'listing' });

    expect(listed.keys.map((entry) => [entry.name, entry.created_at])).toEqual([
      ['older', '2025-01-15T00:00:00.000Z'],
      ['newer', '2025-02-02T00:00:00.000Z'],
    ]);
    expect(Object.keys(listed.keys[0] ?? {}).sort()).toEqual(['created_at', 'disabled_by', 'hint', 'id', 'last_used_at', 'mcp_servers', 'mcp_tools', 'member', 'name', 'project_id', 'revoked_at', 'rpm', 'status']);
    const text = JSON.stringify(listed);
    for (const key of [newer.key, older.key]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(sha256(key));
    }
  });

  it('answers an empty list for a project without keys, and 404 for an unknown project', async () => {
    await admin.ok({ command: 'project.create', projectId: 'bare' });

    await expect(admin.ok({ command: 'key.list', projectId: 'bare' })).resolves.toEqual({ keys: [] });
    expect(await admin.refused({ command: 'key.list', projectId: 'unknown' })).toMatchObject({ status: 404, code: 'project_not_found' });
  });

  it('revokes a key, stamping revoked_at, and the list shows it revoked', async () => {
    await admin.ok({ command: 'project.create', projectId: 'revoking' });
    const created = await createKey('revoking', 'leaked');
    admin.setTime('2025-04-04T04:04:04.000Z');
    try {
      const revoked = await admin.ok<KeyView>({ command: 'key.revoke', projectId: 'revoking', keyId: created.id });

      expect(revoked).toEqual({
        id: created.id,
        project_id: 'revoking',
        name: 'leaked',
        hint: created.hint,
        created_at: START_TIME,
        revoked_at: '2025-04-04T04:04:04.000Z',
        status: 'revoked',
        disabled_by: null,
        member: null,
        rpm: null,
        last_used_at: null,
        mcp_servers: null,
        mcp_tools: null,
      });
      expect(JSON.stringify(revoked)).not.toContain(sha256(created.key));
      const listed = await admin.ok<{ keys: KeyView[] }>({ command: 'key.list', projectId: 'revoking' });
      expect(listed.keys.map((entry) => entry.status)).toEqual(['revoked']);
      expect((await admin.keys.findByHash(sha256(created.key)))?.revokedAt).toBe('2025-04-04T04:04:04.000Z');
    } finally {
      admin.setTime(START_TIME);
    }
  });

  it('keeps the first revocation time when a key is revoked again', async () => {
    await admin.ok({ command: 'project.create', projectId: 'twice-revoked' });
    const created = await createKey('twice-revoked');
    await admin.ok({ command: 'key.revoke', projectId: 'twice-revoked', keyId: created.id });
    admin.setTime('2025-12-31T23:59:59.000Z');
    try {
      const again = await admin.ok<KeyView>({ command: 'key.revoke', projectId: 'twice-revoked', keyId: created.id });
      expect(again.revoked_at).toBe(START_TIME);
    } finally {
      admin.setTime(START_TIME);
    }
  });

  it('takes a name of up to 200 characters and refuses a longer one, or one with control characters, creating nothing', async () => {
    await admin.ok({ command: 'project.create', projectId: 'named' });
    const longest = await createKey('named', 'n'.repeat(200));
    expect(longest.name).toHaveLength(200);

    const tooLong = { status: 400, code: 'invalid_command', message: 'name: names are at most 200 characters' };
    expect(await admin.refused({ command: 'key.create', projectId: 'named', name: 'n'.repeat(100_000) })).toEqual(tooLong);
    expect(await admin.refused({ command: 'key.update', projectId: 'named', keyId: longest.id, name: 'n'.repeat(201) })).toEqual(tooLong);
    for (const name of ['\u001b]0;pwned\u0007\u001b[2JURGENT', 'two\nlines', 'del\u007f', 'csi\u009b2J', 'gpj.\u202eexe']) {
      expect(await admin.refused({ command: 'key.create', projectId: 'named', name })).toMatchObject({ status: 400, message: expect.stringMatching(/^name: names must not contain control characters/) });
      expect(await admin.refused({ command: 'key.update', projectId: 'named', keyId: longest.id, name })).toMatchObject({ status: 400, code: 'invalid_command' });
    }
    const listed = await admin.ok<{ keys: KeyView[] }>({ command: 'key.list', projectId: 'named' });
    expect(listed.keys.map((key) => key.name)).toEqual(['n'.repeat(200)]);
  });

  it('remembers who disabled a key until it is enabled again', async () => {
    await admin.ok({ command: 'project.create', projectId: 'paused' });
    const created = await createKey('paused');

    const disabled = await admin.ok<KeyView>({ command: 'key.update', projectId: 'paused', keyId: created.id, enabled: false });
    expect(disabled).toMatchObject({ status: 'disabled', disabled_by: 'admin CLI' });
    const enabled = await admin.ok<KeyView>({ command: 'key.update', projectId: 'paused', keyId: created.id, enabled: true });
    expect(enabled).toMatchObject({ status: 'active', disabled_by: null });
    expect((await admin.keys.findByHash(sha256(created.key)))?.disabledBy).toBeUndefined();
  });

  it('refuses to change a revoked key (409 key_revoked): it stays revoked and unchanged, and the audit trail records nothing', async () => {
    await admin.ok({ command: 'project.create', projectId: 'revoked-for-good' });
    const created = await createKey('revoked-for-good', 'old');
    await admin.ok({ command: 'key.revoke', projectId: 'revoked-for-good', keyId: created.id });
    const before = await admin.keys.findByHash(sha256(created.key));

    for (const change of [{ enabled: true }, { enabled: false }, { rpm: 60 }, { rpm: 'none' }, { name: 'new' }, { mcpServers: ['docs'] }, {}]) {
      expect(await admin.refused({ command: 'key.update', projectId: 'revoked-for-good', keyId: created.id, ...change }), JSON.stringify(change)).toEqual({
        status: 409,
        code: 'key_revoked',
        message: `The key "${created.id}" of the project "revoked-for-good" is revoked; create a new key.`,
      });
    }

    expect(await admin.keys.findByHash(sha256(created.key))).toEqual(before);
    const trail = await admin.ok<{ entries: { command: string }[] }>({ command: 'audit.list', projectId: 'revoked-for-good' });
    // Entries of the same millisecond (the clock is fixed) have no order.
    expect(trail.entries.map((entry) => entry.command).sort()).toEqual(['key.create', 'key.revoke', 'project.create']);
  });

  it("answers 404 key_not_found for an unknown key or another project's key", async () => {
    await admin.ok({ command: 'project.create', projectId: 'owner' });
    await admin.ok({ command: 'project.create', projectId: 'stranger' });
    const created = await createKey('owner');

    for (const [projectId, keyId] of [
      ['owner', 'key_doesnotexist00'],
      ['stranger', created.id],
    ] as const) {
      expect(await admin.refused({ command: 'key.revoke', projectId, keyId })).toEqual({
        status: 404,
        code: 'key_not_found',
        message: `The project "${projectId}" has no key "${keyId}".`,
      });
    }
    expect((await admin.keys.findByHash(sha256(created.key)))?.revokedAt).toBeUndefined();
  });

  it("invalidates the process's cached key on revoke, so the next lookup sees the revocation", async () => {
    await admin.ok({ command: 'project.create', projectId: 'cached-key' });
    const created = await createKey('cached-key');
    const other = await createKey('cached-key');
    const hash = sha256(created.key);
    const { keys } = admin.services.caches;
    expect((await keys.get(hash, () => admin.keys.findByHash(hash)))?.revokedAt).toBeUndefined();
    await keys.get(sha256(other.key), () => admin.keys.findByHash(sha256(other.key)));

    await admin.ok({ command: 'key.revoke', projectId: 'cached-key', keyId: created.id });

    const loads: string[] = [];
    const reloaded = await keys.get(hash, async (): Promise<KeyRecord | undefined> => {
      loads.push('revoked');
      return admin.keys.findByHash(hash);
    });
    await keys.get(sha256(other.key), async () => {
      loads.push('other');
      return admin.keys.findByHash(sha256(other.key));
    });
    expect(loads).toEqual(['revoked']);
    expect(reloaded?.revokedAt).toBe(START_TIME);
  });
});
