import { readdir, readFile, stat } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { runCommand, startCommand } from '../support/run-command.ts';

/**
 * Canary secrets through a running gateway (its own process, logging at DEBUG): a provider key the
 * upstream echoes back in errors and streams, and the project key. Afterwards neither appears anywhere:
 * not in the gateway's logs, the answers, the store, the queue, the usage files; the provider key only in
 * the secret file, and the project key nowhere on disk at all (only its hash is stored).
 */
const PROVIDER_CANARY = 'sk-canaryPROVIDERkey-0123456789abcdefXYZ';
let dataDir: string;
let upstream: FakeUpstream;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'gateway-canary-'));
  upstream = await startFakeOpenAiUpstream();
  upstream.answerWith((request, response) => {
    const model = String(request.body.model);
    const echoed = String(request.headers.authorization ?? request.headers['x-api-key'] ?? '');
    if (model === 'echo-400') return sendJson(response, 400, { error: { message: `bad request for key ${echoed}`, type: 'invalid_request_error' } });
    if (model === 'echo-401') return sendJson(response, 401, { error: { message: `invalid key ${echoed}`, type: 'authentication_error' } });
    if (request.body.stream === true) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hello"}}]}\n\n');
      // Broken off mid-stream: the gateway's error frame and its logs must not carry the key either.
      return void setTimeout(() => response.socket?.destroy(), 50);
    }
    return sendJson(response, 200, { id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
  });
});

afterAll(async () => {
  await upstream.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const files = await Promise.all(entries.map((entry) => (entry.isDirectory() ? filesUnder(join(directory, entry.name)) : [join(directory, entry.name)])));
  return files.flat();
}

describe('secrets', () => {
  it('leave no trace in logs, answers, the store, the queue or the usage files', { timeout: 90_000 }, async () => {
    const env = { PORT: '0', GATEWAY_DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'DEBUG' };
    const gateway = startCommand('npm', ['start'], env, /Try it:[\s\S]*-d '/, 40_000);
    const answers: string[] = [];
    let projectKey = '';
    try {
      await gateway.started;
      const admin = (...args: string[]) => runCommand('npm', ['run', '--silent', 'admin', '--', ...args], { GATEWAY_DATA_DIR: dataDir });
      await admin('project', 'create', 'canary');
      await admin('provider', 'set', 'canary', 'leaky', '--protocol', 'openai', '--base-url', upstream.baseUrl, '--api-key', PROVIDER_CANARY);
      for (const model of ['ok', 'echo-400', 'echo-401']) await admin('model', 'allow', 'canary', `leaky/${model}`);
      const created = await admin('key', 'create', 'canary');
      projectKey = (JSON.parse(created.stdout) as { key: string }).key;
      answers.push(created.stderr);
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(gateway.output())?.[1] as string;
      for (const [model, stream] of [['ok', false], ['ok', true], ['echo-400', false], ['echo-401', false], ['echo-401', true]] as const) {
        for (const path of ['/v1/chat/completions', '/v1/messages']) {
          const response = await fetch(`${url}${path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${projectKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ model: `leaky/${model}`, stream, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
          });
          answers.push(JSON.stringify([...response.headers]), await response.text());
        }
      }
      answers.push(await (await fetch(`${url}/v1/nothing`, { headers: { authorization: `Bearer ${projectKey}` } })).text());
      // The writer has run when the last request's record is in the usage files.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    } finally {
      await gateway.stop();
    }

    expect(projectKey).toMatch(/^gw\./);
    const everywhere = [gateway.output(), ...answers].join('\n');
    expect(everywhere).not.toContain(PROVIDER_CANARY);
    expect(everywhere.split(projectKey).length - 1).toBe(0);
    const files = await filesUnder(dataDir);
    expect(files.some((file) => file.includes(`${join('usage', '')}`) || file.endsWith('.jsonl'))).toBe(true);
    for (const file of files) {
      if ((await stat(file)).size === 0) continue;
      const content = (await readFile(file)).toString('latin1');
      expect(content.includes(projectKey), `${file} holds the project key`).toBe(false);
      if (!file.endsWith('secrets.json')) expect(content.includes(PROVIDER_CANARY), `${file} holds the provider key`).toBe(false);
    }
  });
});
