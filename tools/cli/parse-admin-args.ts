import { parseArgs } from 'node:util';

/** A command line the CLI cannot turn into a command: printed with the usage text, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const ADMIN_USAGE = `Usage: npm run --silent admin -- <command>

  project create <projectId> [--name NAME]
  project get <projectId>
  project update <projectId> [--name NAME] [--plan active|inactive] [--usage-injection on|off]
                             [--failover on|off] [--mcp on|off]
                             [--balance-usd AMOUNT|none] [--credit-usd AMOUNT]
                             [--rpm N|none] [--tpm N|none] [--first-byte-timeout-ms N|none] [--deadline-ms N|none]
                             [--allowed-cidrs LIST|none] [--allowed-environments LIST|none]
                             [--allowed-endpoints chat,models,generation|none]
  member add <projectId> <member> [--role owner|member]   # console access; <member> is their e-mail
  member list <projectId>
  member remove <projectId> <member>      # ends console access and refuses the member's keys (403)
  member restore <projectId> <member>     # the member's keys work again (no console access)
  provider set <projectId> <provider> --api-key KEY [--base-url URL] [--protocol openai|anthropic]
  model allow <projectId> <provider>/<model> [--alias NAME]
                          [--input-micros-per-1k N] [--output-micros-per-1k N]
                          [--cached-input-micros-per-1k N] [--cache-write-input-micros-per-1k N]
  model remove <projectId> <provider>/<model>
  ratecard set <provider>/<model> --input-micros-per-1k N --output-micros-per-1k N
               [--cached-input-micros-per-1k N] [--cache-write-input-micros-per-1k N]
  ratecard list
  key create <projectId> [--name NAME] [--member MEMBER] [--rpm N]
  key list <projectId>
  key update <projectId> <keyId> [--name NAME] [--enabled on|off] [--rpm N|none]
  key revoke <projectId> <keyId>
  audit list <projectId> [--limit N]      # who changed what, newest first

Prints one JSON document on stdout; errors go to stderr with a non-zero exit code.`;

const options = {
  name: { type: 'string' },
  plan: { type: 'string' },
  'usage-injection': { type: 'string' },
  failover: { type: 'string' },
  mcp: { type: 'string' },
  'balance-usd': { type: 'string' },
  'credit-usd': { type: 'string' },
  rpm: { type: 'string' },
  tpm: { type: 'string' },
  'first-byte-timeout-ms': { type: 'string' },
  'deadline-ms': { type: 'string' },
  'allowed-cidrs': { type: 'string' },
  'allowed-environments': { type: 'string' },
  'allowed-endpoints': { type: 'string' },
  member: { type: 'string' },
  role: { type: 'string' },
  limit: { type: 'string' },
  enabled: { type: 'string' },
  'api-key': { type: 'string' },
  'base-url': { type: 'string' },
  protocol: { type: 'string' },
  alias: { type: 'string' },
  'input-micros-per-1k': { type: 'string' },
  'output-micros-per-1k': { type: 'string' },
  'cached-input-micros-per-1k': { type: 'string' },
  'cache-write-input-micros-per-1k': { type: 'string' },
} as const;

/** How many positional arguments follow each command's two words. */
const positionalCounts: Record<string, number> = {
  'project create': 1,
  'project get': 1,
  'project update': 1,
  'provider set': 2,
  'model allow': 2,
  'model remove': 2,
  'ratecard set': 1,
  'ratecard list': 0,
  'key create': 1,
  'key list': 1,
  'key revoke': 2,
  'key update': 2,
  'member add': 2,
  'member list': 1,
  'member remove': 2,
  'member restore': 2,
  'audit list': 1,
};

type Flags = Partial<Record<keyof typeof options, string>>;

/** A positive whole number, or "none" to clear the setting. */
function countOrNone(flags: Flags, name: 'rpm' | 'tpm' | 'first-byte-timeout-ms' | 'deadline-ms'): number | 'none' | undefined {
  const value = flags[name];
  if (value === undefined || value === 'none') return value;
  if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`--${name} takes a positive whole number or "none", not "${value}".`);
  return Number(value);
}

/** A comma-separated list, or "none" to clear it. */
function listOrNone(flags: Flags, name: 'allowed-cidrs' | 'allowed-environments' | 'allowed-endpoints'): string[] | 'none' | undefined {
  const value = flags[name];
  if (value === undefined || value === 'none') return value;
  const items = value.split(',').map((item) => item.trim()).filter(Boolean);
  if (items.length === 0) throw new UsageError(`--${name} takes a comma-separated list or "none".`);
  return items;
}

function onOff(flags: Flags, name: 'usage-injection' | 'failover' | 'mcp' | 'enabled'): boolean | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  if (value === 'on' || value === 'off') return value === 'on';
  throw new UsageError(`--${name} takes "on" or "off", not "${value}".`);
}

function micros(
  flags: Flags,
  name: 'input-micros-per-1k' | 'output-micros-per-1k' | 'cached-input-micros-per-1k' | 'cache-write-input-micros-per-1k',
): number | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} takes a whole number of micro-USD per 1,000 tokens, not "${value}".`);
  return Number(value);
}

function positional(values: string[], index: number, what: string): string {
  const value = values[index];
  if (value === undefined) throw new UsageError(`Missing ${what}.`);
  return value;
}

/** Turns `project create demo --name Demo` into the admin function's event. */
export function parseAdminArgs(argv: string[]): Record<string, unknown> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const flags: Flags = parsed.values;
  const [group, verb, ...rest] = parsed.positionals;
  const expected = positionalCounts[`${group ?? ''} ${verb ?? ''}`];
  if (expected !== undefined && rest.length > expected) {
    throw new UsageError(`Unexpected argument "${rest[expected] ?? ''}".`);
  }
  const projectId = () => positional(rest, 0, '<projectId>');
  const defined = (event: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(event).filter(([, value]) => value !== undefined));

  switch (`${group ?? ''} ${verb ?? ''}`) {
    case 'project create':
      return defined({ command: 'project.create', projectId: projectId(), name: flags.name });
    case 'project get':
      return { command: 'project.get', projectId: projectId() };
    case 'project update':
      return defined({
        command: 'project.update',
        projectId: projectId(),
        name: flags.name,
        plan: flags.plan,
        usageInjection: onOff(flags, 'usage-injection'),
        failover: onOff(flags, 'failover'),
        mcp: onOff(flags, 'mcp'),
        balanceUsd: flags['balance-usd'],
        creditUsd: flags['credit-usd'],
        rpm: countOrNone(flags, 'rpm'),
        tpm: countOrNone(flags, 'tpm'),
        firstByteTimeoutMs: countOrNone(flags, 'first-byte-timeout-ms'),
        deadlineMs: countOrNone(flags, 'deadline-ms'),
        allowedCidrs: listOrNone(flags, 'allowed-cidrs'),
        allowedEnvironments: listOrNone(flags, 'allowed-environments'),
        allowedEndpoints: listOrNone(flags, 'allowed-endpoints'),
      });
    case 'member add':
      return defined({ command: 'member.add', projectId: projectId(), member: positional(rest, 1, '<member>'), role: flags.role });
    case 'member list':
      return { command: 'member.list', projectId: projectId() };
    case 'audit list': {
      const limit = flags.limit;
      if (limit !== undefined && !/^[1-9]\d*$/.test(limit)) throw new UsageError(`--limit takes a positive whole number, not "${limit}".`);
      return defined({ command: 'audit.list', projectId: projectId(), limit: limit === undefined ? undefined : Number(limit) });
    }
    case 'member remove':
    case 'member restore':
      return { command: `member.${verb ?? ''}`, projectId: projectId(), member: positional(rest, 1, '<member>') };
    case 'provider set':
      return defined({
        command: 'provider.set',
        projectId: projectId(),
        provider: positional(rest, 1, '<provider>'),
        apiKey: flags['api-key'],
        baseUrl: flags['base-url'],
        protocol: flags.protocol,
      });
    case 'model allow':
      return defined({
        command: 'model.allow',
        projectId: projectId(),
        slug: positional(rest, 1, '<provider>/<model>'),
        alias: flags.alias,
        inputMicrosPer1k: micros(flags, 'input-micros-per-1k'),
        outputMicrosPer1k: micros(flags, 'output-micros-per-1k'),
        cachedInputMicrosPer1k: micros(flags, 'cached-input-micros-per-1k'),
        cacheWriteInputMicrosPer1k: micros(flags, 'cache-write-input-micros-per-1k'),
      });
    case 'model remove':
      return { command: 'model.remove', projectId: projectId(), slug: positional(rest, 1, '<provider>/<model>') };
    case 'ratecard set':
      return defined({
        command: 'ratecard.set',
        slug: positional(rest, 0, '<provider>/<model>'),
        inputMicrosPer1k: micros(flags, 'input-micros-per-1k') ?? missing('--input-micros-per-1k'),
        outputMicrosPer1k: micros(flags, 'output-micros-per-1k') ?? missing('--output-micros-per-1k'),
        cachedInputMicrosPer1k: micros(flags, 'cached-input-micros-per-1k'),
        cacheWriteInputMicrosPer1k: micros(flags, 'cache-write-input-micros-per-1k'),
      });
    case 'ratecard list':
      return { command: 'ratecard.list' };
    case 'key create': {
      const rpm = countOrNone(flags, 'rpm');
      if (rpm === 'none') throw new UsageError('--rpm of a new key takes a positive whole number.');
      return defined({ command: 'key.create', projectId: projectId(), name: flags.name, member: flags.member, rpm });
    }
    case 'key update':
      return defined({
        command: 'key.update',
        projectId: projectId(),
        keyId: positional(rest, 1, '<keyId>'),
        name: flags.name,
        enabled: onOff(flags, 'enabled'),
        rpm: countOrNone(flags, 'rpm'),
      });
    case 'key list':
      return { command: 'key.list', projectId: projectId() };
    case 'key revoke':
      return { command: 'key.revoke', projectId: projectId(), keyId: positional(rest, 1, '<keyId>') };
    default:
      throw new UsageError(group ? `Unknown command "${[group, verb].filter(Boolean).join(' ')}".` : 'No command given.');
  }
}

function missing(flag: string): never {
  throw new UsageError(`${flag} is required.`);
}
