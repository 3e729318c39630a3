import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand, startCommand } from '../support/run-command.ts';

let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'gateway-start-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const env = () => ({ PORT: '0', GATEWAY_DATA_DIR: dataDir, GATEWAY_MOCK_WORD_DELAY_MS: '0' });

describe('npm start', () => {
  it('creates the demo project on first start and prints a key and a curl line that work', async () => {
    const gateway = startCommand('npm', ['start'], env(), /Try it:[\s\S]*#signin=\w+/);
    try {
      const output = await gateway.started;
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      const key = /^\s+(gw\.[0-9A-Za-z]{43})$/m.exec(output)?.[1];
      expect(url).toBeDefined();
      expect(key).toBeDefined();
      expect(output).toMatch(/OFFLINE MOCK provider/);
      expect(output).toContain(`curl ${url}/v1/chat/completions`);

      expect((await fetch(`${url}/health`)).status).toBe(200);
      const client = new OpenAI({ apiKey: key, baseURL: `${url}/v1`, maxRetries: 0 });
      const completion = await client.chat.completions.create({ model: 'mock/echo', messages: [{ role: 'user', content: 'Hello' }] });
      expect(completion.choices[0]?.message.content).toBe('[offline mock echo] You said: Hello');

      const stream = await client.chat.completions.create({ model: 'echo', stream: true, messages: [{ role: 'user', content: 'Hello' }] });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe('[offline mock echo] You said: Hello');

      // The console link signs the local user in once, as the owner of the demo project.
      const code = new RegExp(`${url}/console/#signin=([0-9A-Za-z]+)`).exec(output)?.[1];
      expect(code).toBeDefined();
      const signIn = await fetch(`${url}/console/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
      const { token } = (await signIn.json()) as { token: string };
      const me = await fetch(`${url}/console/api/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(await me.json()).toMatchObject({ member: 'admin@localhost', projects: [{ id: 'demo', role: 'owner' }] });

      // One line per request, written once the request is metered: never the prompt or the key.
      const requestLines = () => gateway.output().split('\n').filter((line) => /^(GET|POST) \//.test(line));
      await expect.poll(() => requestLines().filter((line) => line.startsWith('POST /v1/chat/completions')).length).toBe(2);
      // The liveness probe (the admin CLI's, before each command) has no line.
      expect(requestLines().filter((line) => line.startsWith('GET /health'))).toEqual([]);
      for (const line of requestLines().filter((candidate) => candidate.startsWith('POST /v1/'))) {
        expect(line).toMatch(/^POST \/v1\/chat\/completions 200 · mock\/echo · \d+ ms · \d+ in \/ \d+ out tokens · \$0\.\d+$/);
      }
      expect(requestLines().join('\n')).not.toMatch(/Hello|gw\./);
      // The console's calls are requests too; their lines hold no sign-in code or session token.
      await expect.poll(() => requestLines().filter((line) => /^POST \/console\/api\/session 200 · \d+ ms$/.test(line)).length).toBe(1);
      expect(requestLines().join('\n')).not.toContain(String(code));
      expect(requestLines().join('\n')).not.toContain(token);
    } finally {
      await gateway.stop();
    }
  });

  it('keeps its data across restarts, says how to get a key instead of a second demo key, is quiet when asked, and removes its host file on exit', async () => {
    const gateway = startCommand('npm', ['start'], { ...env(), GATEWAY_QUIET: '1' }, /key create demo --name laptop/);
    try {
      const output = await gateway.started;
      expect(output).not.toMatch(/First start/);
      expect(output).not.toMatch(/gw\.[0-9A-Za-z]{43}/);
      expect((await stat(join(dataDir, 'host.json'))).mode & 0o777).toBe(0o600);
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      expect((await fetch(`${url}/health`)).status).toBe(200);
      // The hint names the data directory (not the default one): pasted as it is, it reaches this gateway.
      const hint = /^ {2}(GATEWAY_DATA_DIR=\S+ npm run --silent admin -- key create demo --name laptop)$/m.exec(output)?.[1];
      expect(hint).toBe(`GATEWAY_DATA_DIR=${dataDir} npm run --silent admin -- key create demo --name laptop`);
      const pasted = await runCommand('sh', ['-c', hint as string]);
      expect(pasted.code).toBe(0);
      expect(JSON.parse(pasted.stdout)).toMatchObject({ project_id: 'demo', key: expect.stringMatching(/^gw\./) });
    } finally {
      await gateway.stop();
    }
    expect(gateway.output()).not.toMatch(/^GET \/health/m);
    expect(gateway.output()).not.toMatch(/One line per request/);
    // A stopped host (stop waits for the gateway's own process, not only npm) leaves no host file behind,
    // so the admin CLI no longer tries to reach it.
    await expect(stat(join(dataDir, 'host.json'))).rejects.toThrow(/ENOENT/);
  });

  it("reads the handlers' settings from its environment: the mock provider's pauses between words, filled with keep-alive comments", { timeout: 60_000 }, async () => {
    const otherDirectory = await mkdtemp(join(tmpdir(), 'gateway-start-settings-'));
    // Words 500 ms apart and a keep-alive every 50 ms: dozens of comments in the answer (none with the
    // defaults, 15 ms and 15 s).
    const settings = { GATEWAY_MOCK_WORD_DELAY_MS: '500', GATEWAY_HEARTBEAT_INTERVAL_MS: '50' };
    const gateway = startCommand('npm', ['start'], { PORT: '0', GATEWAY_DATA_DIR: otherDirectory, GATEWAY_QUIET: '1', ...settings }, /Try it:[\s\S]*-d '/);
    try {
      const output = await gateway.started;
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1] as string;
      const key = /^\s+(gw\.[0-9A-Za-z]{43})$/m.exec(output)?.[1] as string;
      const answer = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'mock/echo', stream: true, messages: [{ role: 'user', content: 'Hello' }] }),
      });
      const text = await answer.text();
      expect(text).toMatch(/data: \[DONE\]\n\n$/);
      expect((text.match(/^: keep-alive$/gm) ?? []).length).toBeGreaterThanOrEqual(5);
    } finally {
      await gateway.stop();
      await rm(otherDirectory, { recursive: true, force: true });
    }
  });

  it('prints its usage for -h and --help (exit code 0) and refuses a bad PORT or HOST in one line (exit code 2)', { timeout: 60_000 }, async () => {
    for (const flag of ['-h', '--help']) {
      const help = await runCommand('npm', ['start', '--silent', '--', flag], env());
      expect(help).toMatchObject({ code: 0, stderr: '' });
      expect(help.stdout).toMatch(/^Usage: npm start \[-- --quiet\]\n/);
      expect(help.stdout).toContain('GATEWAY_HEARTBEAT_INTERVAL_MS');
    }
    const badPort = await runCommand('npm', ['start', '--silent'], { ...env(), PORT: 'abc' });
    expect(badPort).toMatchObject({ code: 2, stdout: '' });
    expect(badPort.stderr).toBe('error: PORT="abc": expected a port number from 0 to 65535 (npm start -- --help lists the options and settings)\n');
    const badSetting = await runCommand('npm', ['start', '--silent'], { ...env(), GATEWAY_HEARTBEAT_INTERVAL_MS: '0' });
    expect(badSetting).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: GATEWAY_HEARTBEAT_INTERVAL_MS="0": [^\n]+\n$/) });
    // 192.0.2.1 (TEST-NET-1) is never an address of this machine: found out when listening.
    const foreignHost = await runCommand('npm', ['start', '--silent'], { ...env(), HOST: '192.0.2.1', GATEWAY_QUIET: '1' });
    expect(foreignHost).toMatchObject({ code: 2, stdout: '' });
    expect(foreignHost.stderr).toBe('error: Cannot listen on HOST=192.0.2.1: it is not an address of this machine. Use 127.0.0.1 (the default), or 0.0.0.0 for every interface.\n');
  });

  it('refuses, in one line, to start on a data directory a running gateway uses, or on a port in use', async () => {
    const gateway = startCommand('npm', ['start'], { ...env(), GATEWAY_QUIET: '1' }, /listening on/);
    try {
      const output = await gateway.started;
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1] as string;
      const sameDirectory = await runCommand('npm', ['start', '--silent'], { ...env(), GATEWAY_QUIET: '1' });
      expect(sameDirectory.code).toBe(1);
      expect(sameDirectory.stderr.trim()).toMatch(/^error: A gateway is already running on .+ \(pid \d+, http:\/\/127\.0\.0\.1:\d+\)\. Stop it first, or start this one on another data directory: GATEWAY_DATA_DIR=/);
      const otherDirectory = await mkdtemp(join(tmpdir(), 'gateway-start-port-'));
      try {
        const samePort = await runCommand('npm', ['start', '--silent'], { PORT: port, GATEWAY_DATA_DIR: otherDirectory, GATEWAY_QUIET: '1' });
        expect(samePort.code).toBe(1);
        expect(samePort.stderr.trim()).toBe(`error: Port ${port} is already in use. Stop what uses it, or start on another port: PORT=${Number(port) + 1} npm start`);
      } finally {
        await rm(otherDirectory, { recursive: true, force: true });
      }
    } finally {
      await gateway.stop();
    }
  });
});
