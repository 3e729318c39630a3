import { projectIdArgument, type CliCommand } from './cli-command.ts';
import { oneOf } from './flag-values.ts';

const PROJECT_VIEW = 'the project as JSON: settings, spend, balance, providers (never a key) and models with their prices';
const MEMBERSHIP_VIEW = '{project_id, member, role, added_at}';
const memberArgument = { name: 'member', description: 'their e-mail address (the console signs them in by it), or the name given to key create --member', field: 'member' };

export const memberCommands: CliCommand[] = [
  {
    group: 'member',
    verb: 'add',
    event: 'member.add',
    summary: 'Give someone console access to a project, or change their role',
    details:
      'An owner manages the project in the console; a member sees it and creates and revokes their own keys. A removed member added again gets their keys back. A project keeps at least one owner once it has one.',
    arguments: [projectIdArgument, memberArgument],
    flags: [{ name: '--role', value: 'owner|member', description: 'their role (default: member)', field: 'role', parse: oneOf(['owner', 'member']) }],
    examples: ['member add acme alice@example.com --role owner', 'member add acme bob@example.com'],
    prints: MEMBERSHIP_VIEW,
  },
  {
    group: 'member',
    verb: 'list',
    event: 'member.list',
    summary: "List a project's members and the removed ones",
    arguments: [projectIdArgument],
    flags: [],
    examples: ['member list acme --output table'],
    prints: `{"members": [${MEMBERSHIP_VIEW}], "removed_members": [member]}, members sorted by member`,
  },
  {
    group: 'member',
    verb: 'remove',
    event: 'member.remove',
    summary: "End a member's console access and refuse every key of theirs (403) until added again or restored; the keys stay",
    details: 'Works for people who only hold keys (key create --member) too; a name that is neither a member nor holds a key is refused, so a typo never reports success. The last owner cannot be removed: add another owner first.',
    arguments: [projectIdArgument, memberArgument],
    flags: [],
    examples: ['member remove acme bob@example.com'],
    prints: PROJECT_VIEW,
  },
  {
    group: 'member',
    verb: 'restore',
    event: 'member.restore',
    summary: "Accept a removed member's keys again (without console access: that is member add)",
    arguments: [projectIdArgument, memberArgument],
    flags: [],
    examples: ['member restore acme bob@example.com'],
    prints: PROJECT_VIEW,
  },
];
