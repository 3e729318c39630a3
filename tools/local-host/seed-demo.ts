import type { AdminResult } from '../../shared/admin/admin-command.ts';
import { MOCK_PROVIDER } from '../../shared/core/provider-catalog.ts';

export interface DemoProject {
  projectId: string;
  model: string;
  key: string;
}

type InvokeAdmin = (event: unknown) => Promise<unknown>;

async function run(invokeAdmin: InvokeAdmin, event: Record<string, unknown>): Promise<unknown> {
  const answer = (await invokeAdmin(event)) as AdminResult;
  if (!answer.ok) throw new Error(`Seeding the demo project failed at ${String(event.command)}: ${answer.error.message}`);
  return answer.result;
}

/**
 * The first start's demo: a `demo` project on the offline mock provider, one allowlisted model with
 * illustrative prices, a key, and the local console user as its owner. Done through the admin function,
 * exactly as an admin would.
 */
export async function seedDemoProject(invokeAdmin: InvokeAdmin, consoleOwner: string): Promise<DemoProject> {
  const projectId = 'demo';
  await run(invokeAdmin, { command: 'project.create', projectId, name: 'Demo project (offline mock provider)' });
  await run(invokeAdmin, { command: 'provider.set', projectId, provider: MOCK_PROVIDER });
  await run(invokeAdmin, {
    command: 'model.allow',
    projectId,
    slug: `${MOCK_PROVIDER}/echo`,
    alias: 'echo',
    inputMicrosPer1k: 150,
    outputMicrosPer1k: 600,
  });
  await run(invokeAdmin, { command: 'member.add', projectId, member: consoleOwner, role: 'owner' });
  const created = (await run(invokeAdmin, { command: 'key.create', projectId, name: 'demo' })) as { key: string };
  return { projectId, model: `${MOCK_PROVIDER}/echo`, key: created.key };
}
