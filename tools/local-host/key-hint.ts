import type { AdminResult } from '../../shared/admin/admin-command.ts';

type InvokeAdmin = (event: unknown) => Promise<unknown>;

/**
 * What a restart prints instead of the demo key, which was shown once and is stored only as a hash:
 * how to create another key, for the demo project when it is still there, else for the first project.
 */
export async function describeHowToGetAKey(invokeAdmin: InvokeAdmin): Promise<string> {
  const answer = (await invokeAdmin({ command: 'project.list' })) as AdminResult;
  const projects = answer.ok ? (answer.result as { projects: Array<{ id: string }> }).projects.map((project) => project.id) : [];
  const project = projects.includes('demo') ? 'demo' : projects[0];
  if (!project) return 'No project yet: create one with "npm run --silent admin -- project create <projectId>" (README: A 5-minute tour).';
  return (
    'Project keys are shown only when created. Lost the key (the demo key is printed on the first start only)? Create another:\n\n' +
    `  npm run --silent admin -- key create ${project} --name laptop`
  );
}
