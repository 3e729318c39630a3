import { startAdminHarness, type AdminHarness, type ProjectView } from './admin-harness.ts';

export interface RateList {
  rates: Array<{ slug: string; input_price_micros_per_1k: number; output_price_micros_per_1k: number }>;
}

/** An admin harness whose organisation rate card prices two models; a project may override them. */
export async function startRateCardHarness(): Promise<AdminHarness> {
  const admin = await startAdminHarness();
  await admin.ok({ command: 'ratecard.set', slug: 'openai/gpt-4o', inputMicrosPer1k: 2500, outputMicrosPer1k: 10000 });
  await admin.ok({ command: 'ratecard.set', slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600 });
  return admin;
}

export async function createProjectWithOpenai(admin: AdminHarness, projectId: string): Promise<void> {
  await admin.ok({ command: 'project.create', projectId });
  await admin.ok({ command: 'provider.set', projectId, provider: 'openai', apiKey: 'sk-upstream-models' });
}

export function model(view: ProjectView, slug: string) {
  return view.models.find((entry) => entry.slug === slug);
}
