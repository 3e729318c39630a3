import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminHarness, type AdminHarness, type ProjectView } from './admin-harness.ts';

type ModelView = ProjectView['models'][number];

describe('runAdminCommand: model limits, descriptions and the model list', () => {
  let admin: AdminHarness;

  beforeAll(async () => {
    admin = await startAdminHarness();
    await admin.ok({ command: 'project.create', projectId: 'limits' });
    await admin.ok({ command: 'provider.set', projectId: 'limits', provider: 'openai', apiKey: 'sk-limits' });
    await admin.ok({ command: 'provider.set', projectId: 'limits', provider: 'openrouter', apiKey: 'sk-or-limits' });
  });
  afterAll(async () => {
    await admin?.close();
  });

  async function allow(event: Record<string, unknown>): Promise<ModelView | undefined> {
    const view = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'limits', ...event });
    return view.models.find((entry) => entry.slug === event.slug);
  }

  it('gives a known model its published limits, also under another provider and as a dated snapshot', async () => {
    expect(await allow({ slug: 'openai/gpt-4.1-mini' })).toMatchObject({ context_length: 1_047_576, max_output_tokens: 32_768 });
    expect(await allow({ slug: 'openrouter/openai/gpt-4o-mini' })).toMatchObject({ context_length: 128_000, max_output_tokens: 16_384 });
    expect(await allow({ slug: 'openai/gpt-4o-mini-2024-07-18' })).toMatchObject({ context_length: 128_000, max_output_tokens: 16_384 });
  });

  it('leaves the limits of an unknown model unknown (null) until they are given', async () => {
    expect(await allow({ slug: 'openai/ft:gpt-4o:acme' })).toMatchObject({ context_length: null, max_output_tokens: null });
    expect(await allow({ slug: 'openai/ft:gpt-4o:acme', contextLength: 64_000 })).toMatchObject({ context_length: 64_000, max_output_tokens: null });
  });

  it('lets the admin override the limits and describe the model; allowing it again keeps what is not given', async () => {
    await allow({ slug: 'openai/gpt-4o', contextLength: 100_000, maxOutputTokens: 4_096, description: 'Our default for summaries' });

    const again = await allow({ slug: 'openai/gpt-4o', alias: 'summaries' });

    expect(again).toMatchObject({ alias: 'summaries', context_length: 100_000, max_output_tokens: 4_096, description: 'Our default for summaries' });
  });

  it('refuses limits that are not positive whole numbers', async () => {
    const error = await admin.refused({ command: 'model.allow', projectId: 'limits', slug: 'openai/o3', maxOutputTokens: 0 });
    expect(error).toMatchObject({ status: 400, code: 'invalid_command' });
  });

  it('lists the allowlist sorted by slug, each model as the project view shows it', async () => {
    const { models } = await admin.ok<{ models: ModelView[] }>({ command: 'model.list', projectId: 'limits' });
    const project = await admin.ok<ProjectView>({ command: 'project.get', projectId: 'limits' });

    expect(models.map((entry) => entry.slug)).toEqual([...project.models.map((entry) => entry.slug)].sort());
    expect(models).toEqual(expect.arrayContaining(project.models));
  });
});
