import { describe, expect, it } from 'vitest';
import { adminCommandSchema } from '../../../shared/admin/admin-command.ts';
import { ADMIN_USAGE, parseAdminArgs, UsageError } from '../../../tools/cli/parse-admin-args.ts';

const args = (line: string): string[] => line.split(' ').filter(Boolean);

function usageError(line: string): UsageError {
  try {
    parseAdminArgs(args(line));
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error(`expected "${line}" to be refused`);
}

describe('parseAdminArgs', () => {
  it.each<[string, Record<string, unknown>]>([
    ['project create demo', { command: 'project.create', projectId: 'demo' }],
    ['project create demo --name Demo', { command: 'project.create', projectId: 'demo', name: 'Demo' }],
    ['project get demo', { command: 'project.get', projectId: 'demo' }],
    ['project update demo', { command: 'project.update', projectId: 'demo' }],
    [
      'project update demo --name New --plan inactive --usage-injection on --failover off --mcp on',
      { command: 'project.update', projectId: 'demo', name: 'New', plan: 'inactive', usageInjection: true, failover: false, mcp: true },
    ],
    ['provider set demo mock', { command: 'provider.set', projectId: 'demo', provider: 'mock' }],
    [
      'provider set demo acme --api-key sk-test-123 --base-url https://llm.acme.example/v1 --protocol anthropic',
      {
        command: 'provider.set',
        projectId: 'demo',
        provider: 'acme',
        apiKey: 'sk-test-123',
        baseUrl: 'https://llm.acme.example/v1',
        protocol: 'anthropic',
      },
    ],
    ['model allow demo mock/echo', { command: 'model.allow', projectId: 'demo', slug: 'mock/echo' }],
    [
      'model allow demo openrouter/openai/gpt-4o-mini --alias fast --input-micros-per-1k 150 --output-micros-per-1k 600',
      {
        command: 'model.allow',
        projectId: 'demo',
        slug: 'openrouter/openai/gpt-4o-mini',
        alias: 'fast',
        inputMicrosPer1k: 150,
        outputMicrosPer1k: 600,
      },
    ],
    ['model remove demo mock/echo', { command: 'model.remove', projectId: 'demo', slug: 'mock/echo' }],
    [
      'ratecard set openai/gpt-4o-mini --input-micros-per-1k 0 --output-micros-per-1k 600',
      { command: 'ratecard.set', slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 0, outputMicrosPer1k: 600 },
    ],
    ['ratecard list', { command: 'ratecard.list' }],
    ['key create demo', { command: 'key.create', projectId: 'demo' }],
    ['key create demo --name ci', { command: 'key.create', projectId: 'demo', name: 'ci' }],
    ['key list demo', { command: 'key.list', projectId: 'demo' }],
    ['key revoke demo key_abc', { command: 'key.revoke', projectId: 'demo', keyId: 'key_abc' }],
    ['member add demo alice@example.com', { command: 'member.add', projectId: 'demo', member: 'alice@example.com' }],
    ['member add demo bob@example.com --role owner', { command: 'member.add', projectId: 'demo', member: 'bob@example.com', role: 'owner' }],
    ['member list demo', { command: 'member.list', projectId: 'demo' }],
    ['audit list demo', { command: 'audit.list', projectId: 'demo' }],
    ['audit list demo --limit 10', { command: 'audit.list', projectId: 'demo', limit: 10 }],
  ])('maps "%s" to its event', (line, event) => {
    expect(parseAdminArgs(args(line))).toEqual(event);
  });

  it('builds an event the admin function accepts for every command of the usage text', () => {
    const lines = [
      'project create demo --name Demo',
      'project get demo',
      'project update demo --plan active --usage-injection off --failover on --mcp off --rpm 60 --tpm none --allowed-cidrs 10.0.0.0/8,::1 --allowed-endpoints chat',
      'member add demo alice@example.com --role owner',
      'member list demo',
      'member remove demo alice',
      'member restore demo alice',
      'provider set demo openai --api-key sk-x',
      'model allow demo openai/gpt-4o-mini --alias fast --input-micros-per-1k 1 --output-micros-per-1k 2',
      'model remove demo openai/gpt-4o-mini',
      'ratecard set openai/gpt-4o-mini --input-micros-per-1k 1 --output-micros-per-1k 2',
      'ratecard list',
      'key create demo',
      'key list demo',
      'key update demo key_1 --enabled off --rpm none',
      'key revoke demo key_1',
      'audit list demo --limit 5',
    ];
    const commands = lines.map((line) => adminCommandSchema.parse(parseAdminArgs(args(line))).command);
    expect(new Set(commands).size).toBe(17);
    const inUsage = [...ADMIN_USAGE.matchAll(/^ {2}([a-z]+) ([a-z]+)/gm)].map((match) => `${match[1]} ${match[2]}`);
    const covered = lines.map((line) => args(line).slice(0, 2).join(' '));
    expect(covered).toEqual(inUsage);
  });

  it.each(['0', '-2', 'ten'])('refuses the audit limit %j', (value) => {
    expect(usageError(`audit list demo --limit=${value}`).message).toBe(`--limit takes a positive whole number, not "${value}".`);
  });

  it('takes a flag value given with "=", and flags before positionals', () => {
    expect(parseAdminArgs(['key', 'create', '--name=ci bot', 'demo'])).toEqual({ command: 'key.create', projectId: 'demo', name: 'ci bot' });
  });

  it.each([
    ['on', true],
    ['off', false],
  ])('maps --usage-injection %s to %s', (value, expected) => {
    expect(parseAdminArgs(args(`project update demo --usage-injection ${value}`))).toEqual({
      command: 'project.update',
      projectId: 'demo',
      usageInjection: expected,
    });
  });

  it.each([
    ['--usage-injection yes', '--usage-injection takes "on" or "off", not "yes".'],
    ['--failover true', '--failover takes "on" or "off", not "true".'],
    ['--mcp ON', '--mcp takes "on" or "off", not "ON".'],
  ])('refuses project update with %s', (flag, message) => {
    expect(usageError(`project update demo ${flag}`).message).toBe(message);
  });

  it.each(['-1', '1.5', 'ten', '1e3', ''])('refuses the price %j', (value) => {
    const error = usageError(`model allow demo a/b --input-micros-per-1k=${value}`);
    expect(error.message).toBe(`--input-micros-per-1k takes a whole number of micro-USD per 1,000 tokens, not "${value}".`);
  });

  it.each([
    ['project create', 'Missing <projectId>.'],
    ['project get', 'Missing <projectId>.'],
    ['project update', 'Missing <projectId>.'],
    ['provider set demo', 'Missing <provider>.'],
    ['model allow demo', 'Missing <provider>/<model>.'],
    ['model remove demo', 'Missing <provider>/<model>.'],
    ['ratecard set', 'Missing <provider>/<model>.'],
    ['key create', 'Missing <projectId>.'],
    ['key list', 'Missing <projectId>.'],
    ['key revoke demo', 'Missing <keyId>.'],
  ])('refuses "%s" with "%s"', (line, message) => {
    expect(usageError(line).message).toBe(message);
  });

  it('requires both prices for ratecard set', () => {
    expect(usageError('ratecard set a/b --output-micros-per-1k 1').message).toBe('--input-micros-per-1k is required.');
    expect(usageError('ratecard set a/b --input-micros-per-1k 1').message).toBe('--output-micros-per-1k is required.');
  });

  it('refuses an unknown flag', () => {
    const error = usageError('project create demo --colour blue');
    expect(error).toBeInstanceOf(UsageError);
    expect(error.name).toBe('UsageError');
    expect(error.message).toContain('--colour');
  });

  it('refuses a flag without its value', () => {
    expect(usageError('project create demo --name').message).toContain('--name');
  });

  it.each([
    ['project delete demo', 'Unknown command "project delete".'],
    ['project', 'Unknown command "project".'],
    ['deploy', 'Unknown command "deploy".'],
    ['', 'No command given.'],
  ])('refuses the command line %j', (line, message) => {
    expect(usageError(line).message).toBe(message);
  });
});

describe('parseAdminArgs with extra arguments', () => {
  it('refuses an argument the command does not take instead of ignoring it', () => {
    expect(() => parseAdminArgs(['project', 'get', 'demo', 'extra'])).toThrow(/Unexpected argument "extra"/);
  });
});

describe('parseAdminArgs for limits, policies, members and key updates', () => {
  it('maps limits and lists, with "none" clearing them', () => {
    expect(parseAdminArgs(args('project update demo --rpm 60 --tpm none --allowed-environments prod,staging --deadline-ms 60000'))).toEqual({
      command: 'project.update',
      projectId: 'demo',
      rpm: 60,
      tpm: 'none',
      allowedEnvironments: ['prod', 'staging'],
      deadlineMs: 60000,
    });
  });

  it('maps a key with a member and a limit, and a key update', () => {
    expect(parseAdminArgs(args('key create demo --member alice --rpm 10'))).toEqual({ command: 'key.create', projectId: 'demo', member: 'alice', rpm: 10 });
    expect(parseAdminArgs(args('key update demo key_1 --enabled on'))).toEqual({ command: 'key.update', projectId: 'demo', keyId: 'key_1', enabled: true });
  });

  it('refuses a limit that is not a positive whole number', () => {
    expect(() => parseAdminArgs(args('project update demo --rpm 0'))).toThrow(/--rpm takes a positive whole number or "none"/);
    expect(() => parseAdminArgs(args('key create demo --rpm none'))).toThrow(/--rpm of a new key/);
  });
});
