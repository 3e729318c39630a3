import { projectIdArgument, type CliCommand } from './cli-command.ts';
import { allowlist, onOff, positiveInteger, positiveIntegerOrNone, text } from './flag-values.ts';

const keyIdArgument = { name: 'keyId', description: 'the key id, as key create and key list print it', field: 'keyId' };
const KEY_FIELDS = 'id, project_id, name, hint, created_at, revoked_at, status, disabled_by, member, rpm, last_used_at, mcp_servers, mcp_tools';
const KEY_VIEW = `{${KEY_FIELDS}}`;

export const keyCommands: CliCommand[] = [
  {
    group: 'key',
    verb: 'create',
    event: 'key.create',
    summary: 'Create a project key (gw.…), shown this once',
    details: 'Only its hash is stored: keep the key from this answer, no command can show it again.',
    arguments: [projectIdArgument],
    flags: [
      { name: '--name', value: 'NAME', description: 'a label for listings, at most 200 characters (default: "default")', field: 'name', parse: text },
      { name: '--member', value: 'MEMBER', description: 'the project member the key belongs to (member remove refuses it)', field: 'member', parse: text },
      { name: '--rpm', value: 'N', description: 'requests per minute for this key', field: 'rpm', parse: positiveInteger },
    ],
    examples: ['key create acme --name laptop', 'key create acme --member alice@example.com --rpm 60'],
    prints: `{${KEY_FIELDS}, key}: the key's description and, in "key", the key itself`,
  },
  {
    group: 'key',
    verb: 'list',
    event: 'key.list',
    summary: "List a project's keys (never a key itself)",
    arguments: [projectIdArgument],
    flags: [],
    examples: ['key list acme --output table'],
    prints: `{"keys": [${KEY_VIEW}]}, oldest first`,
  },
  {
    group: 'key',
    verb: 'update',
    event: 'key.update',
    summary: 'Rename, disable or enable a key, or change its rate limit or its MCP servers and tools',
    details:
      'A disabled key is refused with 403 until enabled again; a revoked key cannot be changed (exit code 1): create a new key. Through the tool bridge (/mcp/v1) a key reaches every MCP server and tool of its project ' +
      'unless --mcp-servers or --mcp-tools narrow it: a tool must pass both, and what a key may not reach is neither listed nor callable. ' +
      'For these two lists "none" allows nothing (--mcp-servers none: no MCP access) and "all" lifts the list.',
    arguments: [projectIdArgument, keyIdArgument],
    flags: [
      { name: '--name', value: 'NAME', description: 'a new label, at most 200 characters', field: 'name', parse: text },
      { name: '--enabled', value: 'on|off', description: 'off refuses the key (403) until on again; disabled_by says who turned it off (in the console, a member may turn on only a key they turned off)', field: 'enabled', parse: onOff },
      { name: '--rpm', value: 'N|none', description: 'requests per minute for this key', field: 'rpm', parse: positiveIntegerOrNone },
      { name: '--mcp-servers', value: 'LIST|none|all', description: 'the MCP servers this key may reach, e.g. docs,tickets ("none": no server; "all": every one)', field: 'mcpServers', parse: allowlist },
      { name: '--mcp-tools', value: 'LIST|none|all', description: 'the bridged tools it may list and call, e.g. docs__search ("none": no tool; "all": every one)', field: 'mcpTools', parse: allowlist },
    ],
    examples: [
      'key update acme key_7hQ2mX9pLc4RtV8w --enabled off',
      'key update acme key_7hQ2mX9pLc4RtV8w --rpm none',
      'key update acme key_7hQ2mX9pLc4RtV8w --mcp-servers docs --mcp-tools docs__search,docs__fetch',
      'key update acme key_7hQ2mX9pLc4RtV8w --mcp-servers none',
    ],
    prints: KEY_VIEW,
  },
  {
    group: 'key',
    verb: 'revoke',
    event: 'key.revoke',
    summary: 'Revoke a key for good (401 within a minute everywhere, at once on this host)',
    arguments: [projectIdArgument, keyIdArgument],
    flags: [],
    examples: ['key revoke acme key_7hQ2mX9pLc4RtV8w'],
    prints: KEY_VIEW,
  },
];
