import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminHarness, ProjectView } from './admin-harness.ts';
import { createProjectWithOpenai, model, startRateCardHarness } from './run-admin-command-models-fixtures.ts';

describe('runAdminCommand: model.remove', () => {
  let admin: AdminHarness;
  const projectWithOpenai = (projectId: string) => createProjectWithOpenai(admin, projectId);

  beforeAll(async () => {
    admin = await startRateCardHarness();
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('removes a model together with its project prices', async () => {
    await projectWithOpenai('removal');
    await admin.ok({ command: 'model.allow', projectId: 'removal', slug: 'openai/gpt-4o', inputMicrosPer1k: 1, outputMicrosPer1k: 2 });
    await admin.ok({ command: 'model.allow', projectId: 'removal', slug: 'openai/gpt-4o-mini' });

    const result = await admin.ok<ProjectView>({ command: 'model.remove', projectId: 'removal', slug: 'openai/gpt-4o' });

    expect(result.models.map((entry) => entry.slug)).toEqual(['openai/gpt-4o-mini']);
    const readded = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'removal', slug: 'openai/gpt-4o' });
    expect(model(readded, 'openai/gpt-4o')).toMatchObject({ input_price_micros_per_1k: 2500, price_source: 'organisation' });
  });

  it('answers 404 model_not_found when removing a model that is not allowed', async () => {
    await projectWithOpenai('absent');

    const error = await admin.refused({ command: 'model.remove', projectId: 'absent', slug: 'openai/gpt-4o' });

    expect(error).toEqual({ status: 404, code: 'model_not_found', message: '"openai/gpt-4o" is not on the allowlist of "absent".' });
  });

  it('invalidates the cached project when its allowlist changes', async () => {
    await projectWithOpenai('allow-cache');
    const { projects } = admin.services.caches;
    const load = () => admin.projects.loadProjectConfig('allow-cache');
    expect((await projects.get('allow-cache', load))?.models).toEqual([]);

    await admin.ok({ command: 'model.allow', projectId: 'allow-cache', slug: 'openai/gpt-4o' });
    expect((await projects.get('allow-cache', load))?.models.map((entry) => entry.slug)).toEqual(['openai/gpt-4o']);

    await admin.ok({ command: 'model.remove', projectId: 'allow-cache', slug: 'openai/gpt-4o' });
    expect((await projects.get('allow-cache', load))?.models).toEqual([]);
  });
});
