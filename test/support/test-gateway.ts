import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { AdminResult } from '../../shared/admin/admin-command.ts';
import { startLocalHost, type LocalHost, type LocalHostOptions } from '../../tools/local-host/local-host.ts';

export interface TestGateway {
  host: LocalHost;
  url: string;
  /** The host's data directory (usage files under usage/), removed on close. */
  dataDir: string;
  /** Runs an admin command through the admin handler; throws when it is refused. */
  admin<T = Record<string, unknown>>(event: Record<string, unknown>): Promise<T>;
  /** Runs an admin command and returns the refusal (throws when it succeeds). */
  adminError(event: Record<string, unknown>): Promise<{ status: number; code: string; message: string }>;
  /** An `openai` SDK client pointed at the gateway with the given key, no retries. */
  openai(apiKey: string, options?: { defaultHeaders?: Record<string, string>; maxRetries?: number }): OpenAI;
  close(): Promise<void>;
}

/** Starts the local host on a free port with a throw-away data directory. One per test file. */
export async function startTestGateway(env: Record<string, string> = {}, hostOptions: Pick<LocalHostOptions, 'bodyStallMs'> = {}): Promise<TestGateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gateway-test-'));
  const host = await startLocalHost({ port: 0, dataDir, env: { GATEWAY_MOCK_WORD_DELAY_MS: '0', POWERTOOLS_LOG_LEVEL: 'SILENT', ...env }, ...hostOptions });
  const invoke = async (event: Record<string, unknown>) => (await host.invokeAdmin(event)) as AdminResult;
  return {
    host,
    url: host.url,
    dataDir,
    async admin<T>(event: Record<string, unknown>) {
      const answer = await invoke(event);
      if (!answer.ok) throw new Error(`admin ${String(event.command)} refused: ${answer.error.message}`);
      return answer.result as T;
    },
    async adminError(event) {
      const answer = await invoke(event);
      if (answer.ok) throw new Error(`admin ${String(event.command)} unexpectedly succeeded`);
      return answer.error;
    },
    openai(apiKey, options = {}) {
      return new OpenAI({ apiKey, baseURL: `${host.url}/v1`, maxRetries: 0, timeout: 10_000, ...options });
    },
    async close() {
      await host.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Creates a project with a provider at `baseUrl` (speaking OpenAI's protocol unless told), the given models allowed, and a key; returns the key. */
export async function createProjectWithKey(
  gateway: TestGateway,
  options: { projectId: string; provider?: string; protocol?: string; baseUrl: string; apiKey?: string; models: Array<{ slug: string; alias?: string; inputMicrosPer1k?: number; outputMicrosPer1k?: number; kind?: string } & Record<string, unknown>> },
): Promise<string> {
  const provider = options.provider ?? 'openai';
  await gateway.admin({ command: 'project.create', projectId: options.projectId });
  await gateway.admin({
    command: 'provider.set',
    projectId: options.projectId,
    provider,
    apiKey: options.apiKey ?? 'sk-upstream-secret-0123456789',
    baseUrl: options.baseUrl,
    protocol: options.protocol ?? 'openai',
  });
  for (const model of options.models) {
    await gateway.admin({ command: 'model.allow', projectId: options.projectId, ...model });
  }
  const { key } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: options.projectId });
  return key;
}
