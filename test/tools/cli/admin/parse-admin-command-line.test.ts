import { describe, expect, it } from 'vitest';
import { adminCommandSchema } from '../../../../shared/admin/admin-command.ts';
import { ADMIN_CLI_COMMANDS } from '../../../../tools/cli/admin/admin-cli-commands.ts';
import { parseAdminCommandLine, type AdminCommandLine } from '../../../../tools/cli/admin/parse-admin-command-line.ts';
import { parse as parseShellWords } from 'shell-quote';

/** Splits a command line as a shell would (quotes, `$VAR` left as written). */
function words(line: string): string[] {
  return parseShellWords(line, (name) => `$${name}`).map((word) => (typeof word === 'string' ? word : ''));
}

function event(line: string): Record<string, unknown> {
  const parsed = parseAdminCommandLine(words(line));
  if (parsed.kind !== 'command') throw new Error(`"${line}" did not parse: ${parsed.text}`);
  return parsed.event;
}

function usageError(line: string): string {
  const parsed = parseAdminCommandLine(words(line));
  if (parsed.kind !== 'usage-error') throw new Error(`expected "${line}" to be refused, got ${JSON.stringify(parsed)}`);
  return parsed.text;
}

function help(line: string): string {
  const parsed: AdminCommandLine = parseAdminCommandLine(words(line));
  if (parsed.kind !== 'help') throw new Error(`expected help for "${line}", got ${JSON.stringify(parsed)}`);
  return parsed.text;
}

describe('parseAdminCommandLine', () => {
  it.each<[string, Record<string, unknown>]>([
    ['project create demo --name "Demo project"', { command: 'project.create', projectId: 'demo', name: 'Demo project' }],
    ['project list', { command: 'project.list' }],
    [
      'project update demo --usage-injection on --failover off --rpm 60 --tpm none --balance-usd 25 --allowed-endpoints chat,messages',
      { command: 'project.update', projectId: 'demo', usageInjection: true, failover: false, rpm: 60, tpm: 'none', balanceUsd: '25', allowedEndpoints: ['chat', 'messages'] },
    ],
    ['provider set demo mock', { command: 'provider.set', projectId: 'demo', provider: 'mock' }],
    ['provider list demo', { command: 'provider.list', projectId: 'demo' }],
    ['provider remove demo openai', { command: 'provider.remove', projectId: 'demo', provider: 'openai' }],
    [
      'model allow demo openrouter/openai/gpt-4o-mini --alias fast --input-micros-per-1k 150 --output-micros-per-1k=600 --context-length 128000 --max-output-tokens 16384',
      {
        command: 'model.allow',
        projectId: 'demo',
        slug: 'openrouter/openai/gpt-4o-mini',
        alias: 'fast',
        inputMicrosPer1k: 150,
        outputMicrosPer1k: 600,
        contextLength: 128000,
        maxOutputTokens: 16384,
      },
    ],
    ['model list demo', { command: 'model.list', projectId: 'demo' }],
    ['key create --name "ci bot" demo', { command: 'key.create', projectId: 'demo', name: 'ci bot' }],
    ['key update demo key_1 --enabled off --rpm none', { command: 'key.update', projectId: 'demo', keyId: 'key_1', enabled: false, rpm: 'none' }],
    ['member add demo alice@example.com', { command: 'member.add', projectId: 'demo', member: 'alice@example.com' }],
    ['member add demo bob@example.com --role owner', { command: 'member.add', projectId: 'demo', member: 'bob@example.com', role: 'owner' }],
    ['member list demo', { command: 'member.list', projectId: 'demo' }],
    ['member remove demo alice', { command: 'member.remove', projectId: 'demo', member: 'alice' }],
    ['audit list demo', { command: 'audit.list', projectId: 'demo' }],
    ['audit list demo --limit 10', { command: 'audit.list', projectId: 'demo', limit: 10 }],
    [
      'key update demo key_1 --mcp-servers docs,tickets --mcp-tools docs__search',
      { command: 'key.update', projectId: 'demo', keyId: 'key_1', mcpServers: ['docs', 'tickets'], mcpTools: ['docs__search'] },
    ],
    ['key update demo key_1 --mcp-servers none', { command: 'key.update', projectId: 'demo', keyId: 'key_1', mcpServers: [] }],
    ['key update demo key_1 --mcp-servers none,', { command: 'key.update', projectId: 'demo', keyId: 'key_1', mcpServers: ['none'] }],
    ['key update demo key_1 --mcp-servers all --mcp-tools none', { command: 'key.update', projectId: 'demo', keyId: 'key_1', mcpServers: 'all', mcpTools: [] }],
    [
      'mcp add demo docs --url https://mcp.example.com/mcp --header "Authorization=Bearer a=b" --header X-Tenant=acme',
      {
        command: 'mcp.add',
        projectId: 'demo',
        name: 'docs',
        url: 'https://mcp.example.com/mcp',
        headers: [
          { name: 'Authorization', value: 'Bearer a=b' },
          { name: 'X-Tenant', value: 'acme' },
        ],
      },
    ],
    ['mcp add demo docs --url https://mcp.example.com/mcp', { command: 'mcp.add', projectId: 'demo', name: 'docs', url: 'https://mcp.example.com/mcp' }],
    ['mcp list demo', { command: 'mcp.list', projectId: 'demo' }],
    ['mcp remove demo docs', { command: 'mcp.remove', projectId: 'demo', name: 'docs' }],
  ])('maps "%s" to its admin event', (line, expected) => {
    expect(event(line)).toEqual(expected);
  });

  it('has exactly one command for each admin event, and every example of every command parses to a valid event', () => {
    const events = adminCommandSchema.options.map((option) => option.shape.command.value).sort();
    expect(ADMIN_CLI_COMMANDS.map((command) => command.event).sort()).toEqual(events);
    for (const command of ADMIN_CLI_COMMANDS) {
      expect(command.examples.length, command.event).toBeGreaterThan(0);
      for (const example of command.examples) expect(adminCommandSchema.parse(event(example)).command).toBe(command.event);
    }
  });

  it('takes the output format before or after the command, json by default', () => {
    expect(parseAdminCommandLine(words('project list'))).toMatchObject({ kind: 'command', output: 'json' });
    expect(parseAdminCommandLine(words('project list --output table'))).toMatchObject({ kind: 'command', output: 'table' });
    expect(parseAdminCommandLine(words('-o table key list demo'))).toMatchObject({ kind: 'command', output: 'table' });
    expect(usageError('project list --output yaml')).toContain("argument 'yaml' is invalid. Allowed choices are json, table.");
  });
});

describe('parseAdminCommandLine refusing a command line', () => {
  it('reads a negative number as the value it is, and says what the flag needs, then one hint line', () => {
    expect(usageError('project update demo --rpm -3')).toBe(
      'error: --rpm must be a positive integer or "none", not "-3"\nRun "npm run --silent admin -- project update --help" for usage and an example.\n',
    );
  });

  it.each([
    ['project update demo --balance-usd -5', '--balance-usd must be an amount in USD'],
    ['project update demo --credit-usd 1000000000', '--credit-usd must be an amount in USD such as 25 or 0.5 (at most 9 decimals, at most 999999999.999999999), not "1000000000"'],
    ['project update demo --failover maybe', '--failover must be "on" or "off", not "maybe"'],
    ['project update demo --allowed-endpoints chat,files', '--allowed-endpoints takes chat, responses, completions, embeddings, images, audio, moderations, rerank, videos, passthrough, messages, models, generation, credits, mcp (comma-separated) or "none", not "files"'],
    ['model allow demo openai/gpt-4o --input-micros-per-1k 1.5', '--input-micros-per-1k must be a whole number of micro-USD per 1,000 tokens'],
    ['model allow demo openai/gpt-4o --output-micros-per-1k 99999999999999', '--output-micros-per-1k must be a whole number of micro-USD per 1,000 tokens (0 to 100000000), not "99999999999999"'],
    ['ratecard set openai/sora-2 --input-micros-per-1k 0 --output-micros-per-1k 0 --video-second-micros 100000001', '--video-second-micros must be a whole number of micro-USD (0 to 100000000)'],
    ['model allow demo openai/gpt-4o --context-length 0', '--context-length must be a positive integer, not "0"'],
    ['key create demo --rpm none', '--rpm must be a positive integer, not "none"'],
    ['model allow demo openai/gpt-4o --alias "has space"', '--alias: aliases are letters, digits'],
    ['project create Demo', '<projectId>: project ids are 1-64 characters'],
    ['model remove demo gpt-4o', '<model>: models are named <provider>/<model>'],
    ['member add demo alice@example.com --role admin', '--role must be one of owner, member, not "admin"'],
    ['member add demo "alice smith"', '<member>: member ids are e-mail addresses or names without spaces'],
    ['audit list demo --limit 0', '--limit must be a positive integer, not "0"'],
    ['audit list demo --limit 501', '--limit: Too big'],
    ['mcp add demo docs --url https://mcp.example.com --header Authorization', '--header takes NAME=VALUE'],
    ['mcp add demo my_docs --url https://mcp.example.com', '<name>: MCP server names are 1-32 characters'],
    ['mcp add demo none --url https://mcp.example.com', '<name>: "all" and "none" are not MCP server names: key update --mcp-servers reads them as every server and no server'],
    ['key update demo key_1 --mcp-tools search', '--mcp-tools: tools are named <server>__<tool>'],
  ])('names the flag or argument as typed: %s', (line, message) => {
    const text = usageError(line);
    expect(text.split('\n')[0]).toContain(message);
    expect(text).not.toMatch(/balanceUsd|inputMicrosPer1k|projectId:|slug|apiKey/);
    expect(text.trimEnd().split('\n')).toHaveLength(2);
  });

  it.each([
    [['key', 'create', 'demo', '--name', 'n'.repeat(100_000)], '--name: names are at most 200 characters'],
    [['project', 'update', 'demo', '--name', 'n'.repeat(201)], '--name: names are at most 200 characters'],
    [['project', 'create', 'demo', '--name', '\u001b[2J\u001b[1;31mURGENT'], '--name: names must not contain control characters'],
    [['key', 'update', 'demo', 'key_1', '--name', 'a\u202eb'], '--name: names must not contain control characters'],
  ])('refuses a name that is too long or holds control characters before sending anything: %#', (argv, message) => {
    const parsed = parseAdminCommandLine(argv);
    expect(parsed.kind).toBe('usage-error');
    expect(parsed.kind === 'usage-error' ? parsed.text.split('\n')[0] : '').toContain(message);
  });

  it('refuses an unknown flag, suggesting the likely one, without printing the whole usage', () => {
    expect(usageError('project update demo --rpmm 3')).toBe(
      "error: unknown option '--rpmm'\n(Did you mean --rpm?)\nRun \"npm run --silent admin -- project update --help\" for usage and an example.\n",
    );
  });

  it.each([
    ['project get', "error: missing required argument 'projectId'"],
    ['project get demo extra', "error: too many arguments for 'get'. Expected 1 argument but got 2: demo, extra."],
    ['ratecard set openai/gpt-4o --input-micros-per-1k 1', "error: required option '--output-micros-per-1k <N>' not specified"],
    ['project create demo --name', "error: option '--name <NAME>' argument missing"],
    ['deploy', "error: unknown command 'deploy'"],
    ['project delete demo', "error: unknown command 'delete'"],
    ['help deploy', 'error: there is no command "deploy"'],
  ])('refuses "%s"', (line, message) => {
    expect(usageError(line).split('\n')[0]).toBe(message);
  });
});

describe('parseAdminCommandLine asked for help', () => {
  it('shows a command its usage, flags, what it prints and an example', () => {
    const text = help('project create --help');
    expect(text).toContain('Usage: npm run --silent admin -- project create [options] <projectId>');
    expect(text).toContain('--name <NAME>');
    expect(text).toContain('Prints the project as JSON');
    expect(text).toContain('npm run --silent admin -- project create acme --name "Acme"');
  });

  it('answers "help <group> <command>" and "help <group>" as --help does', () => {
    expect(help('help project update')).toBe(help('project update --help'));
    expect(help('help key')).toBe(help('key --help'));
    expect(help('help')).toBe(help('--help'));
  });

  it('lists the groups and documents the exit codes in the general help', () => {
    const text = help('--help');
    for (const group of ['project', 'member', 'provider', 'model', 'ratecard', 'key', 'mcp', 'audit']) expect(text).toMatch(new RegExp(`^  ${group} `, 'm'));
    expect(text).toContain('Exit codes:');
  });
});
