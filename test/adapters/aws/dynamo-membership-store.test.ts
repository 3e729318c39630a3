import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoAuditTrail } from '../../../shared/adapters/aws/dynamo-audit-trail.ts';
import { DynamoMembershipStore } from '../../../shared/adapters/aws/dynamo-membership-store.ts';
import { DynamoProjectStore } from '../../../shared/adapters/aws/dynamo-project-store.ts';
import { startEmbeddedStore, type EmbeddedStore } from '../../../tools/local-host/embedded-store.ts';
import { embeddedStoreDocuments } from '../../../shared/wiring/dynamo-documents.ts';

const at = '2025-01-02T03:04:05.000Z';

describe('DynamoMembershipStore and DynamoAuditTrail against the embedded store', () => {
  let dataDir: string;
  let embedded: EmbeddedStore | undefined;
  let memberships: DynamoMembershipStore;
  let audit: DynamoAuditTrail;
  let projects: DynamoProjectStore;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'dynamo-membership-store-'));
    embedded = await startEmbeddedStore(dataDir, { keys: 'test-keys', projects: 'test-projects' });
    const documents = embeddedStoreDocuments(embedded.endpoint);
    memberships = new DynamoMembershipStore(documents, 'test-projects');
    audit = new DynamoAuditTrail(documents, 'test-projects');
    projects = new DynamoProjectStore(documents, 'test-projects');
  });
  afterAll(async () => {
    await embedded?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reads a membership both ways: among the project\'s people and among the person\'s projects', async () => {
    await memberships.put({ projectId: 'acme', member: 'alice@example.com', role: 'owner', addedAt: at });
    await memberships.put({ projectId: 'globex', member: 'alice@example.com', role: 'member', addedAt: at });
    await memberships.put({ projectId: 'acme', member: 'bob@example.com', role: 'member', addedAt: at });

    expect((await memberships.listForProject('acme')).map((entry) => [entry.member, entry.role])).toEqual([
      ['alice@example.com', 'owner'],
      ['bob@example.com', 'member'],
    ]);
    expect(await memberships.listForMember('alice@example.com')).toEqual([
      { projectId: 'acme', member: 'alice@example.com', role: 'owner', addedAt: at },
      { projectId: 'globex', member: 'alice@example.com', role: 'member', addedAt: at },
    ]);
  });

  it('removes both sides at once, and answers false for someone who was not a member', async () => {
    await memberships.put({ projectId: 'initech', member: 'carol@example.com', role: 'member', addedAt: at });

    await expect(memberships.remove('initech', 'carol@example.com')).resolves.toBe(true);
    await expect(memberships.remove('initech', 'carol@example.com')).resolves.toBe(false);
    expect(await memberships.listForProject('initech')).toEqual([]);
    expect(await memberships.listForMember('carol@example.com')).toEqual([]);
  });

  it('keeps console data out of the partitions the request path loads', async () => {
    await projects.putProject(
      { projectId: 'hooli', name: 'Hooli', plan: 'active', usageInjection: false, failover: false, mcp: false, createdAt: at, updatedAt: at },
      { mustNotExist: true },
    );
    await memberships.put({ projectId: 'hooli', member: 'dan@example.com', role: 'owner', addedAt: at });
    await audit.append({ projectId: 'hooli', entryId: 'e1', at, actor: { kind: 'admin-cli' }, command: 'project.create', details: {} });

    const config = await projects.loadProjectConfig('hooli');
    expect(config?.project.name).toBe('Hooli');
    expect(config?.models).toEqual([]);
    expect(config?.providers.size).toBe(0);
  });

  it("lists a project's audit entries newest first, as many as asked", async () => {
    for (const [entryId, time] of [['a', '2025-02-01T00:00:00.000Z'], ['b', '2025-02-03T00:00:00.000Z'], ['c', '2025-02-02T00:00:00.000Z']] as const) {
      await audit.append({ projectId: 'trail', entryId, at: time, actor: { kind: 'console', member: 'erin@example.com' }, command: 'key.create', details: { name: entryId } });
    }
    await audit.append({ projectId: 'other-trail', entryId: 'z', at, actor: { kind: 'admin-cli' }, command: 'key.create', details: {} });

    const recent = await audit.listRecent('trail', 2);

    expect(recent.map((entry) => entry.entryId)).toEqual(['b', 'c']);
    expect(recent[0]).toEqual({
      projectId: 'trail',
      entryId: 'b',
      at: '2025-02-03T00:00:00.000Z',
      actor: { kind: 'console', member: 'erin@example.com' },
      command: 'key.create',
      details: { name: 'b' },
    });
  });
});
