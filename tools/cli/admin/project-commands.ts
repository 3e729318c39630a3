import { ENDPOINT_GROUPS } from '../../../shared/core/endpoints.ts';
import { MAX_USD_AMOUNT } from '../../../shared/core/money-limits.ts';
import { projectIdArgument, type CliCommand } from './cli-command.ts';
import { listOrNone, onOff, oneOf, positiveIntegerOrNone, text, usd, usdOrNone } from './flag-values.ts';

const PROJECT_VIEW = 'the project as JSON: settings, spend, balance, providers (never a key) and models with their prices';

export const projectCommands: CliCommand[] = [
  {
    group: 'project',
    verb: 'create',
    event: 'project.create',
    summary: 'Create a project (active, every option off)',
    arguments: [projectIdArgument],
    flags: [{ name: '--name', value: 'NAME', description: 'display name, at most 200 characters (default: the project id)', field: 'name', parse: text }],
    examples: ['project create acme --name "Acme"'],
    prints: PROJECT_VIEW,
  },
  {
    group: 'project',
    verb: 'get',
    event: 'project.get',
    summary: 'Show a project',
    arguments: [projectIdArgument],
    flags: [],
    examples: ['project get acme'],
    prints: PROJECT_VIEW,
  },
  {
    group: 'project',
    verb: 'list',
    event: 'project.list',
    summary: 'List every project',
    arguments: [],
    flags: [],
    examples: ['project list --output table'],
    prints: '{"projects": [{id, name, plan, created_at, updated_at}]}, sorted by id',
  },
  {
    group: 'project',
    verb: 'update',
    event: 'project.update',
    summary: 'Change settings, limits, balance or access policy of a project',
    details: 'Only the flags given change; "none" clears a limit or a list.',
    arguments: [projectIdArgument],
    flags: [
      { name: '--name', value: 'NAME', description: 'display name, at most 200 characters', field: 'name', parse: text },
      { name: '--plan', value: 'active|inactive', description: 'an inactive project is refused (403)', field: 'plan', parse: oneOf(['active', 'inactive']) },
      { name: '--usage-injection', value: 'on|off', description: 'usage.cost in responses and a usage chunk at the end of streams', field: 'usageInjection', parse: onOff },
      { name: '--failover', value: 'on|off', description: 'fail over on upstream 429, 5xx and time-outs without "route": "fallback"', field: 'failover', parse: onOff },
      { name: '--mcp', value: 'on|off', description: 'the tool bridge (MCP) endpoint', field: 'mcp', parse: onOff },
      {
        name: '--pass-through',
        value: 'on|off',
        description: "other /v1/* routes go to the provider with the project's credential (off by default: it opens the provider's whole API)",
        field: 'passThrough',
        parse: onOff,
      },
      {
        name: '--balance-usd',
        value: 'AMOUNT|none',
        description: `make the project prepaid with this balance (at most ${MAX_USD_AMOUNT}); "none": postpaid again`,
        field: 'balanceUsd',
        parse: usdOrNone,
      },
      { name: '--credit-usd', value: 'AMOUNT', description: `add to the balance, at most ${MAX_USD_AMOUNT} at a time (makes the project prepaid)`, field: 'creditUsd', parse: usd },
      { name: '--rpm', value: 'N|none', description: 'requests per minute for the whole project', field: 'rpm', parse: positiveIntegerOrNone },
      { name: '--tpm', value: 'N|none', description: 'tokens per minute for the whole project', field: 'tpm', parse: positiveIntegerOrNone },
      { name: '--first-byte-timeout-ms', value: 'N|none', description: "how long to wait for a provider's first byte, per attempt, and the longest silence of its stream after that", field: 'firstByteTimeoutMs', parse: positiveIntegerOrNone },
      { name: '--deadline-ms', value: 'N|none', description: "the whole request's time budget across failover attempts, the answer's body included", field: 'deadlineMs', parse: positiveIntegerOrNone },
      { name: '--allowed-cidrs', value: 'LIST|none', description: 'client addresses allowed, e.g. 10.0.0.0/8,2001:db8::/32', field: 'allowedCidrs', parse: listOrNone() },
      { name: '--allowed-environments', value: 'LIST|none', description: 'X-Environment values allowed, e.g. prod,staging', field: 'allowedEnvironments', parse: listOrNone() },
      {
        name: '--allowed-endpoints',
        value: `${ENDPOINT_GROUPS.join(',')}|none`,
        description: 'endpoint groups allowed (any of them, comma-separated)',
        field: 'allowedEndpoints',
        parse: listOrNone(ENDPOINT_GROUPS),
      },
    ],
    examples: ['project update acme --failover on --rpm 600', 'project update acme --balance-usd 25', 'project update acme --allowed-endpoints chat,models --tpm none'],
    prints: PROJECT_VIEW,
  },
];
