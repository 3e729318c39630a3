import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAcmeConsole, type ConsoleApiHarness } from './console-api-harness.ts';

interface KeyView {
  id: string;
  name: string;
  member: string | null;
  status: string;
  disabled_by?: string | null;
  key?: string;
}

describe('the console API: keys', () => {
  let consoleApi: ConsoleApiHarness;
  let owner: string;
  let member: string;

  beforeAll(async () => {
    ({ consoleApi, owner, member } = await startAcmeConsole());
  });
  afterAll(async () => {
    await consoleApi?.close();
  });

  it("creates a member key in the caller's name, shows its secret in that answer only, and lists it without", async () => {
    const created = await consoleApi.call('POST', '/projects/acme/keys', { token: member, body: { name: 'laptop', member: 'olivia@example.com', rpm: 1 } });

    expect(created.status).toBe(201);
    const key = created.json as unknown as KeyView & { rpm: number | null };
    expect(key).toMatchObject({ name: 'laptop', member: 'max@example.com', status: 'active', rpm: null });
    expect(key.key).toMatch(/^gw\.[0-9A-Za-z]{43}$/);
    const listed = await consoleApi.call('GET', '/projects/acme/keys', { token: member });
    expect((listed.json.keys as KeyView[]).map((entry) => entry.id)).toContain(key.id);
    expect(listed.text).not.toContain(String(key.key));
  });

  it("shows a member only their own keys and lets them revoke only those; an owner sees and revokes every key", async () => {
    const ownersKey = (await consoleApi.call('POST', '/projects/acme/keys', { token: owner, body: { name: 'ci' } })).json as unknown as KeyView;
    const membersKey = (await consoleApi.call('POST', '/projects/acme/keys', { token: member, body: { name: 'phone' } })).json as unknown as KeyView;

    const seenByMember = (await consoleApi.call('GET', '/projects/acme/keys', { token: member })).json.keys as KeyView[];
    expect(seenByMember.every((entry) => entry.member === 'max@example.com')).toBe(true);
    const refused = await consoleApi.call('POST', `/projects/acme/keys/${ownersKey.id}/revoke`, { token: member });
    expect(refused.status).toBe(403);
    expect(refused.json.error?.code).toBe('not_your_key');

    expect((await consoleApi.call('POST', `/projects/acme/keys/${membersKey.id}/revoke`, { token: member })).json.status).toBe('revoked');
    const seenByOwner = (await consoleApi.call('GET', '/projects/acme/keys', { token: owner })).json.keys as KeyView[];
    expect(seenByOwner.map((entry) => entry.id)).toEqual(expect.arrayContaining([ownersKey.id, membersKey.id]));
    expect((await consoleApi.call('POST', `/projects/acme/keys/${ownersKey.id}/revoke`, { token: owner })).json.status).toBe('revoked');
  });

  it('lets a member disable and enable only their own keys, and an owner any key, as for revocation', async () => {
    const ownersKey = (await consoleApi.call('POST', '/projects/acme/keys', { token: owner, body: { name: 'batch' } })).json as unknown as KeyView;
    const membersKey = (await consoleApi.call('POST', '/projects/acme/keys', { token: member, body: { name: 'tablet' } })).json as unknown as KeyView;

    const refused = await consoleApi.call('POST', `/projects/acme/keys/${ownersKey.id}/disable`, { token: member });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toEqual({ code: 'not_your_key', message: 'Members can disable only their own keys.' });
    expect((await consoleApi.call('POST', `/projects/acme/keys/${membersKey.id}/disable`, { token: member })).json).toMatchObject({ id: membersKey.id, status: 'disabled' });
    expect((await consoleApi.call('POST', `/projects/acme/keys/${membersKey.id}/enable`, { token: member })).json.status).toBe('active');
    expect((await consoleApi.call('POST', `/projects/acme/keys/${membersKey.id}/disable`, { token: owner })).json.status).toBe('disabled');
    expect((await consoleApi.call('POST', `/projects/acme/keys/${ownersKey.id}/disable`, { token: owner })).json.status).toBe('disabled');

    const keys = (await consoleApi.call('GET', '/projects/acme/keys', { token: owner })).json.keys as KeyView[];
    expect(keys.filter((key) => [ownersKey.id, membersKey.id].includes(key.id)).map((key) => key.status)).toEqual(['disabled', 'disabled']);
    const trail = (await consoleApi.call('GET', '/projects/acme/audit', { token: owner })).json.entries as Array<{ actor: string; command: string; details: Record<string, unknown> }>;
    expect(trail).toContainEqual(expect.objectContaining({ actor: 'max@example.com', command: 'key.update', details: expect.objectContaining({ keyId: membersKey.id, enabled: false }) }));

    await consoleApi.call('POST', `/projects/acme/keys/${ownersKey.id}/revoke`, { token: owner });
    const afterRevocation = await consoleApi.call('POST', `/projects/acme/keys/${ownersKey.id}/enable`, { token: owner });
    expect(afterRevocation.status).toBe(409);
    expect(afterRevocation.json.error?.code).toBe('key_revoked');
  });

  it('keeps a member key an owner disabled disabled until an owner enables it: its member cannot undo it', async () => {
    const membersKey = (await consoleApi.call('POST', '/projects/acme/keys', { token: member, body: { name: 'laptop' } })).json as unknown as KeyView;
    expect((await consoleApi.call('POST', `/projects/acme/keys/${membersKey.id}/disable`, { token: owner })).json).toMatchObject({ status: 'disabled', disabled_by: 'olivia@example.com' });

    const refused = await consoleApi.call('POST', `/projects/acme/keys/${membersKey.id}/enable`, { token: member });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toEqual({ code: 'disabled_by_other', message: 'The key was disabled by olivia@example.com; only an owner of the project can enable it.' });
    const seenByMember = (await consoleApi.call('GET', '/projects/acme/keys', { token: member })).json.keys as KeyView[];
    expect(seenByMember.find((key) => key.id === membersKey.id)?.status).toBe('disabled');

    const enabled = (await consoleApi.call('POST', `/projects/acme/keys/${membersKey.id}/enable`, { token: owner })).json;
    expect(enabled).toMatchObject({ status: 'active', disabled_by: null });
  });
});
