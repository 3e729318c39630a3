import OpenAI from 'openai';
import { expect } from 'vitest';
import { startFakeOpenAiUpstream, type FakeUpstream } from './fake-openai-upstream.ts';
import { scriptedUpstream, type Behaviour } from './scripted-upstream.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from './test-gateway.ts';

/** A local gateway over two scripted upstreams (`openai` and `backup`), with the projects the failover tests use. */
export interface FailoverGateway {
  gateway: TestGateway;
  primary: FakeUpstream;
  backup: FakeUpstream;
  key: string;
  failoverProjectKey: string;
  /** A project whose requests must end within 1.5 s. */
  hastyProjectKey: string;
  close(): Promise<void>;
}

/**
 * `log` receives each upstream request as `<provider>:<model it received>`, across both upstreams, in order.
 * `behaviours` is keyed like the log; unlisted models answer 'ok'. Each test uses its own model ids: cool-down is per process.
 */
export async function startFailoverGateway(log: string[], behaviours: () => Record<string, Behaviour>): Promise<FailoverGateway> {
  const primary = await startFakeOpenAiUpstream();
  const backup = await startFakeOpenAiUpstream();
  primary.answerWith(scriptedUpstream('openai', log, behaviours));
  backup.answerWith(scriptedUpstream('backup', log, behaviours));
  // The first-byte time-out is also the longest silence of a stream after its head: well above the 350 ms pause of 'stream-pause'.
  const gateway = await startTestGateway({ GATEWAY_UPSTREAM_FIRST_BYTE_TIMEOUT_MS: '800', GATEWAY_HEARTBEAT_INTERVAL_MS: '100' });
  const allow = async (projectId: string, slugs: string[]): Promise<void> => {
    for (const slug of slugs) await gateway.admin({ command: 'model.allow', projectId, slug });
  };
  const key = await createProjectWithKey(gateway, { projectId: 'acme', baseUrl: primary.baseUrl, models: [] });
  const failoverProjectKey = await createProjectWithKey(gateway, { projectId: 'resilient', baseUrl: primary.baseUrl, models: [] });
  await gateway.admin({ command: 'project.update', projectId: 'resilient', failover: true });
  const hastyProjectKey = await createProjectWithKey(gateway, { projectId: 'hasty', baseUrl: primary.baseUrl, models: [{ slug: 'openai/m-stall' }, { slug: 'openai/m-stream-stall' }] });
  await gateway.admin({ command: 'project.update', projectId: 'hasty', deadlineMs: 1_500 });
  for (const projectId of ['acme', 'resilient']) {
    await gateway.admin({ command: 'provider.set', projectId, provider: 'backup', apiKey: 'sk-backup-secret-0123456789', baseUrl: backup.baseUrl, protocol: 'openai' });
  }
  // The same model under two providers: `backup/openai/m` is the model `openai/m`.
  const pairs = ['m-408', 'm-429', 'm-500', 'm-503', 'm-drop', 'm-silent', 'm-json-break', 'm-chain', 'm-all-429', 'm-all-5xx', 'm-off', 'm-400', 'm-cool', 'm-stream', 'm-beat', 'm-cool-429', 'm-cool-drop', 'm-cool-silent', 'm-cool-400'];
  await allow('acme', pairs.flatMap((id) => [`openai/${id}`, `backup/openai/${id}`]));
  await allow('acme', ['openai/m-chain-b', 'backup/openai/m-chain-c', 'openai/m-alone']);
  // One provider each: `models` alone names its first as the model (the rest are its fallbacks).
  await allow('acme', ['openai/m-list-first', 'openai/m-list-next', 'openai/m-list-off']);
  await allow('resilient', ['openai/m-flag', 'backup/openai/m-flag', 'openai/m-shared', 'backup/openai/m-shared']);
  await allow('acme', ['openai/m-shared', 'backup/openai/m-shared']);
  return {
    gateway,
    primary,
    backup,
    key,
    failoverProjectKey,
    hastyProjectKey,
    close: async () => {
      await gateway.close();
      await primary.close();
      await backup.close();
    },
  };
}

export interface Generation {
  model: string;
  provider: string;
  fallback_attempts: number;
  status: string;
  error_code: string | null;
}

export async function generationOf(gateway: TestGateway, id: string, projectKey: string): Promise<Generation> {
  const lookup = () => fetch(`${gateway.url}/v1/generation?id=${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${projectKey}` } });
  await expect.poll(async () => (await lookup()).status, { timeout: 2_000, interval: 50 }).toBe(200);
  return (await (await lookup()).json()) as Generation;
}

/** Extra body fields the SDK's types do not know (`route`, `models`, `provider`). */
export function chat(model: string, extra: Record<string, unknown> = {}): OpenAI.ChatCompletionCreateParamsNonStreaming {
  return { model, messages: [{ role: 'user', content: 'hi' }], ...extra } as OpenAI.ChatCompletionCreateParamsNonStreaming;
}

export const fallback = { route: 'fallback' };

export async function apiError(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await call.then(() => undefined, (thrown: unknown) => thrown);
  if (!(error instanceof OpenAI.APIError)) throw new Error(`expected an APIError, got ${String(error)}`);
  return error;
}
