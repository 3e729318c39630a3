import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { LocalConsoleSessions } from '../../shared/adapters/local/local-console-sessions.ts';
import { DuckDbUsageQuery } from '../../tools/local-host/duckdb-usage-query.ts';
import { createConsoleApi } from '../../shared/console/console-api.ts';
import type { GatewayResponse } from '../../shared/http/gateway-http.ts';
import { startAdminHarness, type AdminHarness } from '../admin/admin-harness.ts';
import { makeTempDataDir } from '../support/sample-usage-record.ts';

export interface ConsoleApiResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: Record<string, unknown> & { error?: { code: string; message: string } };
}

export interface ConsoleApiHarness {
  admin: AdminHarness;
  sessions: LocalConsoleSessions;
  dataDir: string;
  /** Moves the sessions' clock (the admin clock stays). */
  advance(ms: number): void;
  /** Signs `member` in through a one-time code and returns their bearer token. */
  signIn(member: string): Promise<string>;
  call(method: string, path: string, options?: { token?: string; body?: unknown; contentType?: string }): Promise<ConsoleApiResponse>;
  close(): Promise<void>;
}

/** The console API on real admin services (embedded store), local sessions and DuckDB over a temporary data directory. */
export async function startConsoleApiHarness(): Promise<ConsoleApiHarness> {
  const admin = await startAdminHarness();
  const dataDir = await makeTempDataDir();
  let now = Date.parse('2025-01-02T03:04:05.000Z');
  const clock = { now: () => now };
  const sessions = new LocalConsoleSessions({ clock, randomBytes: (size) => randomBytes(size), codeTtlMs: 600_000, sessionTtlMs: 3_600_000 });
  const api = createConsoleApi({ admin: admin.services, authenticator: sessions, usage: new DuckDbUsageQuery(dataDir), clock, signInCodes: sessions });

  const call: ConsoleApiHarness['call'] = async (method, path, options = {}) => {
    const [pathname, query = ''] = path.split('?');
    const body = options.body === undefined ? '' : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    const response: GatewayResponse = await api({
      method,
      path: `/console/api${pathname ?? ''}`,
      query: new URLSearchParams(query),
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(body !== '' ? { 'content-type': options.contentType ?? 'application/json' } : {}),
      },
      body: Buffer.from(body, 'utf8'),
      sourceIp: '127.0.0.1',
    });
    const text = typeof response.body === 'string' ? response.body : '';
    let json: ConsoleApiResponse['json'] = {};
    if (response.headers['content-type']?.startsWith('application/json')) json = JSON.parse(text) as ConsoleApiResponse['json'];
    return { status: response.status, headers: response.headers, text, json };
  };

  return {
    admin,
    sessions,
    dataDir,
    advance(ms) {
      now += ms;
    },
    async signIn(member) {
      const answer = await call('POST', '/session', { body: { code: sessions.issueSignInCode(member) } });
      return String(answer.json.token);
    },
    call,
    async close() {
      await admin.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The console API with the project "acme" (the mock model priced), its owner and member signed in, and someone outside it. */
export interface AcmeConsole {
  consoleApi: ConsoleApiHarness;
  owner: string;
  member: string;
  outsider: string;
}

export async function startAcmeConsole(): Promise<AcmeConsole> {
  const consoleApi = await startConsoleApiHarness();
  const { admin } = consoleApi;
  await admin.ok({ command: 'project.create', projectId: 'acme', name: 'Acme' });
  await admin.ok({ command: 'project.create', projectId: 'secret-project' });
  await admin.ok({ command: 'provider.set', projectId: 'acme', provider: 'mock' });
  await admin.ok({ command: 'model.allow', projectId: 'acme', slug: 'mock/echo', inputMicrosPer1k: 150, outputMicrosPer1k: 600 });
  await admin.ok({ command: 'member.add', projectId: 'acme', member: 'olivia@example.com', role: 'owner' });
  await admin.ok({ command: 'member.add', projectId: 'acme', member: 'max@example.com' });
  return {
    consoleApi,
    owner: await consoleApi.signIn('olivia@example.com'),
    member: await consoleApi.signIn('Max@Example.com'),
    outsider: await consoleApi.signIn('eve@example.com'),
  };
}
