import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalBackend } from '../../tools/local-host/backend.ts';
import { LOCAL_TABLES } from '../../tools/local-host/local-environment.ts';
import { runCommand, startCommand } from '../support/run-command.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

const admin = (dataDir: string, ...args: string[]) =>
  runCommand('npm', ['run', '--silent', 'admin', '--', ...args], { GATEWAY_DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'SILENT' });

describe('admin CLI without a running host', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gateway-cli-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prints one JSON document on stdout for a command that succeeds', async () => {
    const result = await admin(dataDir, 'project', 'create', 'cli-project', '--name', 'CLI project');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 'cli-project', name: 'CLI project', plan: 'active', models: [] });
  });

  it('prints a refusal on stderr and exits 1', async () => {
    const result = await admin(dataDir, 'project', 'get', 'no-such-project');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/There is no project "no-such-project"\. \(project_not_found\)/);
  });

  it('says on stderr which store it changes when no gateway runs on it, and prints no log lines', async () => {
    const result = await admin(dataDir, 'project', 'get', 'no-such-project');
    expect(result.stderr.split('\n').filter((line) => line !== '')).toEqual([
      `(no gateway is running on ${dataDir}: the command runs on its store directly)`,
      'error: There is no project "no-such-project". (project_not_found)',
    ]);
  });

  it('explains a malformed command line in one line and a hint on stderr, and exits 2', async () => {
    const result = await admin(dataDir, 'project', 'update', 'cli-project', '--rpm', '-3');
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --rpm must be a positive integer or "none", not "-3"\nRun "npm run --silent admin -- project update --help" for usage and an example.\n',
    });
  });

  it('prints the help of a command on stdout and exits 0', async () => {
    const result = await admin(dataDir, 'help', 'model', 'allow');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--context-length <N>');
    expect(result.stdout).toContain('Examples:');
  });

  it('prints a list as a table with --output table', async () => {
    const result = await admin(dataDir, 'project', 'list', '--output', 'table');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ID\s+NAME\s+PLAN\s+CREATED_AT\s+UPDATED_AT\n/);
    expect(result.stdout).toMatch(/^cli-project\s+CLI project\s+active\s/m);
  });
});

describe('admin CLI while the local gateway runs', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('configures a project through the running host, and a key it creates works and revokes at once', async () => {
    const dir = gateway.host.dataDir;
    expect((await admin(dir, 'project', 'create', 'live')).code).toBe(0);
    expect((await admin(dir, 'provider', 'set', 'live', 'mock')).code).toBe(0);
    expect((await admin(dir, 'model', 'allow', 'live', 'mock/echo', '--alias', 'echo')).code).toBe(0);
    const created = JSON.parse((await admin(dir, 'key', 'create', 'live', '--name', 'ci')).stdout) as { id: string; key: string };
    const client = new OpenAI({ apiKey: created.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });

    const completion = await client.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'ping' }] });
    expect(completion.choices[0]?.message.content).toBe('[offline mock echo] You said: ping');

    const listed = JSON.parse((await admin(dir, 'key', 'list', 'live')).stdout) as { keys: Array<Record<string, unknown>> };
    expect(listed.keys).toEqual([expect.objectContaining({ id: created.id, name: 'ci', status: 'active' })]);
    expect(JSON.stringify(listed)).not.toContain(created.key);

    expect((await admin(dir, 'key', 'revoke', 'live', created.id)).code).toBe(0);
    await expect(client.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'ping' }] })).rejects.toMatchObject({ status: 401 });
  });
});

describe('admin CLI while npm start is still opening the data directory', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gateway-cli-held-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('waits for the store the starting gateway holds instead of crashing in LevelDB, then answers', async () => {
    // The store open in a backend process and no host file yet: a gateway between opening its store and listening.
    const holder = await startLocalBackend(join(dataDir, 'dynamodb'), LOCAL_TABLES);
    const cli = startCommand('npm', ['run', '--silent', 'admin', '--', 'project', 'list'], { GATEWAY_DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'SILENT' }, /another process holds the store/);
    let stdout = '';
    cli.child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => cli.child.once('exit', resolve));
    try {
      await cli.started;
      // Here the gateway would be ready or stopped; stopped, the store is free for the command.
      await holder.shutdown();

      expect(await exited).toBe(0);
      expect(JSON.parse(stdout)).toEqual({ projects: [] });
      expect(cli.output()).not.toMatch(/LEVEL_|Database is not open/);
    } finally {
      await holder.shutdown();
      await cli.stop();
    }
  });
});
