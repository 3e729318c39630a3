import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommand } from '../support/run-command.ts';

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
    } finally {
      await gateway.stop();
    }
  });

  it('keeps its data across restarts, does not create a second demo key, and removes its host file on exit', async () => {
    const gateway = startCommand('npm', ['start'], env(), /OpenAI-compatible base URL/);
    try {
      await gateway.started;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(gateway.output()).not.toMatch(/First start/);
      expect((await stat(join(dataDir, 'host.json'))).mode & 0o777).toBe(0o600);
    } finally {
      await gateway.stop();
    }
    // A stopped host leaves no host file behind, so the admin CLI no longer tries to reach it. npm may exit
    // before the gateway process has finished closing, so give it a moment.
    await expect.poll(() => stat(join(dataDir, 'host.json')).then(() => 'present', () => 'gone'), { timeout: 5_000 }).toBe('gone');
  });
});
