import { projectIdArgument, type CliCommand } from './cli-command.ts';
import { positiveInteger } from './flag-values.ts';

export const auditCommands: CliCommand[] = [
  {
    group: 'audit',
    verb: 'list',
    event: 'audit.list',
    summary: 'Who changed what in a project, newest first',
    details: 'Every change made with the admin CLI or in the console: who (a console user, or "admin CLI"), the command and its arguments (secrets left out), when.',
    arguments: [projectIdArgument],
    flags: [{ name: '--limit', value: 'N', description: 'how many entries, at most 500 (default: 50)', field: 'limit', parse: positiveInteger }],
    examples: ['audit list acme --limit 20 --output table'],
    prints: '{"entries": [{at, actor, command, details}]}, newest first',
  },
];
