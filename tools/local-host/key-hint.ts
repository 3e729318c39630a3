import { resolve } from 'node:path';
import type { AdminResult } from '../../shared/admin/admin-command.ts';
import { DEFAULT_DATA_DIR } from './host-file.ts';

type InvokeAdmin = (event: unknown) => Promise<unknown>;

/**
 * What a restart prints instead of the demo key, which was shown once and is stored only as a hash:
 * how to create another key, for the demo project when it is still there, else for the first project.
 * The command names the data directory when it is not the default: pasted without it, the admin CLI would
 * look for a gateway on ./.gateway and, finding none, run on (and create) that directory instead.
 */
export async function describeHowToGetAKey(invokeAdmin: InvokeAdmin, dataDir: string): Promise<string> {
  const admin = `${resolve(dataDir) === resolve(DEFAULT_DATA_DIR) ? '' : `GATEWAY_DATA_DIR=${quoteForShell(resolve(dataDir))} `}npm run --silent admin --`;
  const answer = (await invokeAdmin({ command: 'project.list' })) as AdminResult;
  const projects = answer.ok ? (answer.result as { projects: Array<{ id: string }> }).projects.map((project) => project.id) : [];
  const project = projects.includes('demo') ? 'demo' : projects[0];
  if (!project) return `No project yet: create one with "${admin} project create <projectId>" (README: A 5-minute tour).`;
  return (
    'Project keys are shown only when created. Lost the key (the demo key is printed on the first start only)? Create another:\n\n' +
    `  ${admin} key create ${project} --name laptop`
  );
}

/** A word a POSIX shell reads back as `text`: as it is when it holds nothing special, else in single quotes. */
export function quoteForShell(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
