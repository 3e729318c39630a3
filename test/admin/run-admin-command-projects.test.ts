import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectConfig } from '../../shared/core/project-config.ts';
import { START_TIME, startAdminHarness, type AdminHarness, type ProjectView } from './admin-harness.ts';

describe('runAdminCommand: projects and invalid commands', () => {
  let admin: AdminHarness;

  beforeAll(async () => {
    admin = await startAdminHarness();
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('creates an active project with every option off, named after its id by default', async () => {
    const created = await admin.ok<ProjectView>({ command: 'project.create', projectId: 'created' });

    expect(created).toEqual({
      id: 'created',
      name: 'created',
      plan: 'active',
      usage_injection: false,
      failover: false,
      mcp: false,
      pass_through: false,
      spent_usd: '0',
      request_count: 0,
      balance_usd: null,
      reserved_usd: null,
      rpm: null,
      tpm: null,
      upstream_first_byte_timeout_ms: null,
      request_deadline_ms: null,
      removed_members: [],
      access_policy: { allowed_cidrs: null, allowed_environments: null, allowed_endpoints: null },
      created_at: START_TIME,
      updated_at: START_TIME,
      providers: [],
      models: [],
      mcp_servers: [],
    });
  });

  it('gets a project as it was created, with the given name', async () => {
    await admin.ok({ command: 'project.create', projectId: 'named', name: 'Team Named' });

    const project = await admin.ok<ProjectView>({ command: 'project.get', projectId: 'named' });

    expect(project.id).toBe('named');
    expect(project.name).toBe('Team Named');
    expect(project.created_at).toBe(START_TIME);
  });

  it('refuses to create a project twice with 409 project_exists, keeping the first', async () => {
    await admin.ok({ command: 'project.create', projectId: 'twice', name: 'First' });

    const error = await admin.refused({ command: 'project.create', projectId: 'twice', name: 'Second' });

    expect(error).toMatchObject({ status: 409, code: 'project_exists' });
    expect(error.message).toContain('"twice" already exists');
    expect((await admin.ok<ProjectView>({ command: 'project.get', projectId: 'twice' })).name).toBe('First');
  });

  it('lists every project sorted by id, with its name, plan and times', async () => {
    await admin.ok({ command: 'project.create', projectId: 'listed-b', name: 'Listed B' });
    await admin.ok({ command: 'project.create', projectId: 'listed-a' });
    await admin.ok({ command: 'project.update', projectId: 'listed-b', plan: 'inactive' });

    const { projects } = await admin.ok<{ projects: Array<Record<string, unknown>> }>({ command: 'project.list' });

    const ids = projects.map((project) => project.id as string);
    expect(ids).toEqual([...ids].sort());
    expect(projects.filter((project) => String(project.id).startsWith('listed-'))).toEqual([
      { id: 'listed-a', name: 'listed-a', plan: 'active', created_at: START_TIME, updated_at: START_TIME },
      { id: 'listed-b', name: 'Listed B', plan: 'inactive', created_at: START_TIME, updated_at: START_TIME },
    ]);
  });

  it('answers 404 project_not_found for a project that does not exist', async () => {
    for (const event of [
      { command: 'project.get', projectId: 'missing' },
      { command: 'project.update', projectId: 'missing', name: 'x' },
      { command: 'key.create', projectId: 'missing' },
      { command: 'model.allow', projectId: 'missing', slug: 'openai/gpt-4o' },
    ]) {
      expect(await admin.refused(event)).toEqual({ status: 404, code: 'project_not_found', message: 'There is no project "missing".' });
    }
  });

  it('updates only the given fields and stamps updated_at', async () => {
    await admin.ok({ command: 'project.create', projectId: 'updatable', name: 'Before' });
    admin.setTime('2025-06-07T08:09:10.000Z');
    try {
      const updated = await admin.ok<ProjectView>({
        command: 'project.update',
        projectId: 'updatable',
        plan: 'inactive',
        failover: true,
        usageInjection: true,
      });

      expect(updated).toMatchObject({
        name: 'Before',
        plan: 'inactive',
        failover: true,
        usage_injection: true,
        mcp: false,
        created_at: START_TIME,
        updated_at: '2025-06-07T08:09:10.000Z',
      });
      const renamed = await admin.ok<ProjectView>({ command: 'project.update', projectId: 'updatable', name: 'After', mcp: true, passThrough: true });
      expect(renamed).toMatchObject({ name: 'After', plan: 'inactive', failover: true, mcp: true, pass_through: true });
    } finally {
      admin.setTime(START_TIME);
    }
  });

  it('refuses an update that names no setting with 400 nothing_to_update, changing nothing', async () => {
    await admin.ok({ command: 'project.create', projectId: 'untouched' });
    const before = await admin.ok<ProjectView>({ command: 'project.get', projectId: 'untouched' });

    const error = await admin.refused({ command: 'project.update', projectId: 'untouched' });

    expect(error).toMatchObject({ status: 400, code: 'nothing_to_update' });
    expect(await admin.ok<ProjectView>({ command: 'project.get', projectId: 'untouched' })).toEqual(before);
  });

  it("invalidates the process's cached project on update, so the next read reloads it", async () => {
    await admin.ok({ command: 'project.create', projectId: 'cached', name: 'Cached name' });
    const load = () => admin.projects.loadProjectConfig('cached');
    const primed = await admin.services.caches.projects.get('cached', load);
    expect(primed?.project.name).toBe('Cached name');

    await admin.ok({ command: 'project.update', projectId: 'cached', name: 'Fresh name', plan: 'inactive' });

    let reloads = 0;
    const reloaded = await admin.services.caches.projects.get('cached', async (): Promise<ProjectConfig | undefined> => {
      reloads += 1;
      return load();
    });
    expect(reloads).toBe(1);
    expect(reloaded?.project).toMatchObject({ name: 'Fresh name', plan: 'inactive' });
  });

  it('leaves other cached projects in place when one is updated', async () => {
    await admin.ok({ command: 'project.create', projectId: 'bystander' });
    await admin.ok({ command: 'project.create', projectId: 'changing' });
    await admin.services.caches.projects.get('bystander', () => admin.projects.loadProjectConfig('bystander'));

    await admin.ok({ command: 'project.update', projectId: 'changing', name: 'Changed' });

    let reloads = 0;
    await admin.services.caches.projects.get('bystander', async () => {
      reloads += 1;
      return admin.projects.loadProjectConfig('bystander');
    });
    expect(reloads).toBe(0);
  });

  it('answers 400 invalid_command for events that are not a valid command, naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [null, 'command'],
      ['project.create', 'command'],
      [{}, 'command'],
      [{ command: 'project.delete', projectId: 'alpha' }, 'command'],
      [{ command: 'project.create' }, 'projectId'],
      [{ command: 'project.create', projectId: 'Not A Valid Id' }, 'projectId'],
      [{ command: 'project.update', projectId: 'alpha', plan: 'gold' }, 'plan'],
      [{ command: 'model.allow', projectId: 'alpha', slug: 'no-slash' }, 'slug'],
      [{ command: 'model.allow', projectId: 'alpha', slug: 'openai/gpt-4o', inputMicrosPer1k: 1.5 }, 'inputMicrosPer1k'],
      [{ command: 'model.allow', projectId: 'alpha', slug: 'openai/gpt-4o', alias: 'has space' }, 'alias'],
      [{ command: 'ratecard.set', slug: 'openai/gpt-4o', inputMicrosPer1k: -1, outputMicrosPer1k: 0 }, 'inputMicrosPer1k'],
      [{ command: 'provider.set', projectId: 'alpha', provider: 'openai', protocol: 'grpc' }, 'protocol'],
      [{ command: 'key.revoke', projectId: 'alpha', keyId: '' }, 'keyId'],
    ];
    for (const [event, field] of cases) {
      const error = await admin.refused(event);
      expect(error.status, JSON.stringify(event)).toBe(400);
      expect(error.code).toBe('invalid_command');
      expect(error.message.startsWith(`${field}: `), `${error.message} for ${JSON.stringify(event)}`).toBe(true);
    }
  });

  it("refuses a project name over 200 characters or with control characters, on create and update, and keeps the name it had", async () => {
    await admin.ok({ command: 'project.create', projectId: 'labelled', name: 'é'.repeat(200) });

    expect(await admin.refused({ command: 'project.create', projectId: 'labelled-2', name: 'n'.repeat(201) })).toEqual({
      status: 400,
      code: 'invalid_command',
      message: 'name: names are at most 200 characters',
    });
    const hostile = { command: 'project.update', projectId: 'labelled', name: '\u001b[2J\u001b[1;31mURGENT' };
    expect((await admin.refused(hostile)).message).toMatch(/^name: names must not contain control characters/);
    const listed = await admin.ok<{ projects: { id: string; name: string }[] }>({ command: 'project.list' });
    expect(listed.projects.filter((project) => project.id.startsWith('labelled'))).toEqual([expect.objectContaining({ id: 'labelled', name: 'é'.repeat(200) })]);
  });

  it('creates nothing when the command is invalid', async () => {
    await admin.refused({ command: 'project.create', projectId: 'UPPER' });

    expect((await admin.scan('admin-test-projects')).some((item) => item.projectId === 'UPPER')).toBe(false);
  });

  it('answers an unexpected failure with 500 internal_error and the cause, never throwing', async () => {
    await admin.ok({ command: 'project.create', projectId: 'failing-secrets' });
    const secrets = {
      getApiKey: async () => undefined,
      putApiKey: async () => {
        throw new Error('disk full');
      },
      deleteApiKey: async () => undefined,
    };

    const answer = await admin.run(
      { command: 'provider.set', projectId: 'failing-secrets', provider: 'openai', apiKey: 'sk-x' },
      { secrets },
    );

    expect(answer).toEqual({
      ok: false,
      error: { status: 500, code: 'internal_error', message: 'The admin command failed (Error: disk full).' },
    });
  });
});
