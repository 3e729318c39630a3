import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminHarness, ProjectView } from './admin-harness.ts';
import { createProjectWithOpenai, startRateCardHarness } from './run-admin-command-models-fixtures.ts';

describe('runAdminCommand: model.allow --reasoning', () => {
  let admin: AdminHarness;

  beforeAll(async () => {
    admin = await startRateCardHarness();
    await createProjectWithOpenai(admin, 'azure-like');
  });
  afterAll(async () => {
    await admin?.close();
  });

  const shown = (view: ProjectView, slug: string) => view.models.find((model) => model.slug === slug);

  it('tells a reasoning model by its id unless the admin marks it, keeps the mark through later changes, and clears it with auto', async () => {
    let view = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'azure-like', slug: 'openai/prod-chat' });
    expect(shown(view, 'openai/prod-chat')).toMatchObject({ reasoning: false, reasoning_source: 'model id' });
    view = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'azure-like', slug: 'openai/prod-chat', reasoning: 'yes' });
    expect(shown(view, 'openai/prod-chat')).toMatchObject({ reasoning: true, reasoning_source: 'admin' });
    view = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'azure-like', slug: 'openai/prod-chat', alias: 'prod' });
    expect(shown(view, 'openai/prod-chat')).toMatchObject({ reasoning: true, alias: 'prod' });
    view = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'azure-like', slug: 'openai/prod-chat', reasoning: 'auto' });
    expect(shown(view, 'openai/prod-chat')).toMatchObject({ reasoning: false, reasoning_source: 'model id' });
  });

  it('lets the admin say that a model whose id looks like a reasoning one does not reason', async () => {
    const view = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'azure-like', slug: 'openai/o3-lookalike', reasoning: 'no' });
    expect(shown(view, 'openai/o3-lookalike')).toMatchObject({ reasoning: false, reasoning_source: 'admin' });
  });
});
