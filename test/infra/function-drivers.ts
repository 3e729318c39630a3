import { createSign, generateKeyPairSync } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { SimpleFetcher } from 'aws-jwt-verify/https';
import { expect, vi } from 'vitest';
import type { AdminResult } from '../../shared/admin/admin-command.ts';
import { ORIGIN_SECRET_HEADER } from '../../shared/lambda/origin-secret.ts';
import { functionUrlEvent, invokeStreaming, lambdaContext, loadHandler, type StreamingHandler } from '../support/handler-invocation.ts';
import { usageBatchFiles } from '../../shared/usage-writer/usage-batch-files.ts';
import { sampleRecord, usageMessage } from '../support/sample-usage-record.ts';

/**
 * Drives each gateway function through its real handler module, over the operations it serves, so that
 * every AWS command its code can send is sent at least once (test/infra/least-privilege.test.ts).
 */
type AdminHandler = (event: unknown, context: unknown) => Promise<AdminResult>;

/** A console owner of `acme`, added by the admin exercise for the console's. */
export const CONSOLE_OWNER = 'olivia@example.com';

export async function exerciseAdmin(
  environment: Record<string, string>,
  upstreamBaseUrl: string,
  mcp: { url: string; header: { name: string; value: string } },
  bedrock: { baseUrl: string; region: string; models: readonly string[] },
): Promise<{ key: string; keyId: string }> {
  const handler = await loadHandler<AdminHandler>('functions/admin/handler.ts', environment);
  const run = async <T = Record<string, unknown>>(command: Record<string, unknown>): Promise<T> => {
    const answer = await handler(command, lambdaContext('admin'));
    if (!answer.ok) throw new Error(`${String(command.command)}: ${answer.error.message}`);
    return answer.result as T;
  };
  await run({ command: 'project.create', projectId: 'acme' });
  await run({ command: 'project.update', projectId: 'acme', balanceUsd: '100', rpm: 1000, tpm: 1_000_000 });
  await run({ command: 'project.update', projectId: 'acme', creditUsd: '5' });
  // The first key of a provider creates its secret; the next one puts a new version.
  for (const apiKey of ['sk-first-0123456789', 'sk-second-0123456789']) {
    await run({ command: 'provider.set', projectId: 'acme', provider: 'openai', apiKey, baseUrl: upstreamBaseUrl, protocol: 'openai' });
  }
  await run({ command: 'model.allow', projectId: 'acme', slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600 });
  // A video model: the openai route group keeps its jobs.
  await run({ command: 'model.allow', projectId: 'acme', slug: 'openai/sora-2', kind: 'video', videoSecondMicros: 100_000 });
  // Bedrock: signed with the function's own credentials, so no secret is written.
  await run({ command: 'provider.set', projectId: 'acme', provider: 'bedrock', region: bedrock.region, baseUrl: bedrock.baseUrl });
  for (const model of bedrock.models) await run({ command: 'model.allow', projectId: 'acme', slug: `bedrock/${model}` });
  await run({ command: 'model.allow', projectId: 'acme', slug: 'openai/gpt-4o' });
  await run({ command: 'model.remove', projectId: 'acme', slug: 'openai/gpt-4o' });
  await run({ command: 'ratecard.set', slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600 });
  await run({ command: 'ratecard.list' });
  // A person who only holds a key: removing them reads the project's keys to find theirs.
  await run({ command: 'key.create', projectId: 'acme', name: 'mallory-bot', member: 'mallory' });
  await run({ command: 'member.remove', projectId: 'acme', member: 'mallory' });
  await run({ command: 'member.restore', projectId: 'acme', member: 'mallory' });
  await run({ command: 'member.add', projectId: 'acme', member: CONSOLE_OWNER, role: 'owner' });
  await run({ command: 'member.list', projectId: 'acme' });
  const { key, id: keyId } = await run<{ key: string; id: string }>({ command: 'key.create', projectId: 'acme', name: 'laptop', rpm: 500 });
  const { id: spareKey } = await run<{ id: string }>({ command: 'key.create', projectId: 'acme', name: 'spare' });
  await run({ command: 'key.list', projectId: 'acme' });
  await run({ command: 'key.update', projectId: 'acme', keyId: spareKey, name: 'renamed', rpm: 'none' });
  await run({ command: 'project.get', projectId: 'acme' });
  await run({ command: 'project.list' });
  await run({ command: 'provider.list', projectId: 'acme' });
  await run({ command: 'model.list', projectId: 'acme' });
  await run({ command: 'provider.set', projectId: 'acme', provider: 'groq', apiKey: 'gsk-spare-0123456789', baseUrl: upstreamBaseUrl, protocol: 'openai' });
  await run({ command: 'provider.remove', projectId: 'acme', provider: 'groq' });
  // The tool bridge: on, one server with a secret header (its secret is created), a spare one added and removed.
  await run({ command: 'project.update', projectId: 'acme', mcp: true });
  await run({ command: 'mcp.add', projectId: 'acme', name: 'docs', url: mcp.url, headers: [mcp.header] });
  await run({ command: 'mcp.add', projectId: 'acme', name: 'spare', url: mcp.url });
  await run({ command: 'mcp.list', projectId: 'acme' });
  await run({ command: 'mcp.remove', projectId: 'acme', name: 'spare' });
  await run({ command: 'key.update', projectId: 'acme', keyId: spareKey, mcpServers: ['docs'], mcpTools: 'all' });
  // Last for the spare key: a revoked key refuses every update.
  // Two revocations at once: the loser's conditional update fails and it reads the key back.
  await Promise.all([run({ command: 'key.revoke', projectId: 'acme', keyId: spareKey }), run({ command: 'key.revoke', projectId: 'acme', keyId: spareKey })]);
  await run({ command: 'audit.list', projectId: 'acme' });
  return { key, keyId };
}

export async function exerciseRouteGroup(
  entry: string,
  functionName: string,
  environment: Record<string, string>,
  options: { key: string; originSecret: string; requests: Array<{ method: string; path: string; body?: unknown; headers?: Record<string, string>; status: number }> },
): Promise<void> {
  const handler = await loadHandler<StreamingHandler>(entry, environment);
  const headers = { authorization: `Bearer ${options.key}`, [ORIGIN_SECRET_HEADER]: options.originSecret };
  for (const request of options.requests) {
    const response = await invokeStreaming(handler, functionUrlEvent({ ...request, headers: { ...request.headers, ...headers } }), functionName);
    expect(response.status, `${request.method} ${request.path}: ${response.body.slice(0, 300)}`).toBe(request.status);
  }
}

/**
 * Writes two records (one postpaid, one prepaid) of `known`'s project and key, the first with `known`'s
 * request id; the key's last use is stamped.
 */
export async function exerciseWriter(environment: Record<string, string>, known: { projectId: string; keyId: string; requestId: string }): Promise<void> {
  const handler = await loadHandler<(event: SQSEvent, context: unknown) => Promise<SQSBatchResponse>>('functions/writer/handler.ts', environment);
  const records = [sampleRecord(known), sampleRecord({ projectId: known.projectId, keyId: known.keyId, prepaid: true, reservedNanos: 5_000, costNanos: 1_000 })];
  const result = await handler({ Records: records.map((record, index) => usageMessage(JSON.stringify(record), `m-${index}`)) }, lambdaContext('writer'));
  expect(result.batchItemFailures).toEqual([]);
}

/** Two batch files of one day, as the writer leaves them, for the compactor to merge. */
export function usageFilesToCompact() {
  const day = '2025-03-01';
  const records = [sampleRecord({ createdAt: `${day}T08:00:00Z` }), sampleRecord({ createdAt: `${day}T09:00:00Z` })];
  return { day, files: [...usageBatchFiles(records), ...usageBatchFiles(records.slice(1))] };
}

/** Compacts one day by hand (`from` and `to`), as an operator would after replaying old records. */
export async function exerciseUsageCompactor(environment: Record<string, string>, day: string): Promise<void> {
  const handler = await loadHandler<(event: unknown, context: unknown) => Promise<{ compacted: unknown[] }>>('functions/usage-compactor/handler.ts', environment);
  const result = await handler({ from: day, to: day }, lambdaContext('usage-compactor'));
  expect(result.compacted).toEqual([expect.objectContaining({ day, files: 2, rows: 3, records: 2 })]);
}

type ConsoleHandler = (event: unknown, context: unknown) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * The user pool's key set, as aws-jwt-verify would fetch it from Cognito, and ID tokens signed with its key:
 * the console function's real verifier accepts them. The fetch is the only thing faked.
 */
export function fakeUserPool(site: { region: string; userPoolId: string; clientId: string }) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const issuer = `https://cognito-idp.${site.region}.amazonaws.com/${site.userPoolId}`;
  const jwks = { keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'pool-key', alg: 'RS256', use: 'sig' }] };
  vi.spyOn(SimpleFetcher.prototype, 'fetch').mockImplementation(async (uri: string) => {
    if (uri !== `${issuer}/.well-known/jwks.json`) throw new Error(`Unexpected fetch of ${uri}`);
    return new TextEncoder().encode(JSON.stringify(jwks)).buffer;
  });
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return {
    idToken(email: string): string {
      const now = Math.floor(Date.now() / 1000);
      const header = encode({ alg: 'RS256', kid: 'pool-key', typ: 'JWT' });
      const payload = encode({ iss: issuer, aud: site.clientId, token_use: 'id', sub: email, iat: now, exp: now + 3600, email, email_verified: true });
      const signature = createSign('RSA-SHA256').update(`${header}.${payload}`).sign(privateKey).toString('base64url');
      return `${header}.${payload}.${signature}`;
    },
  };
}

/**
 * Every route of the console API as `owner` (a Cognito ID token), on the project the admin exercise set up:
 * reads, model and provider changes, members, keys (disabled, enabled, then two revocations at once, as the admin exercise does),
 * the audit trail and both usage queries (Athena).
 */
export async function exerciseConsole(
  environment: Record<string, string>,
  options: { idToken: string; originSecret: string; upstreamBaseUrl: string; projectId: string },
): Promise<void> {
  const handler = await loadHandler<ConsoleHandler>('functions/console/handler.ts', environment);
  const headers = { authorization: `Bearer ${options.idToken}`, [ORIGIN_SECRET_HEADER]: options.originSecret };
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await handler(functionUrlEvent({ method, path: `/console/api${path}`, headers, body }), lambdaContext('console'));
    expect(response.statusCode, `${method} ${path}: ${String(response.body).slice(0, 300)}`).toBeLessThan(300);
    return JSON.parse(String(response.body ?? '{}')) as Record<string, unknown>;
  };
  const project = `/projects/${options.projectId}`;
  await call('GET', '/me');
  await call('GET', project);
  await call('POST', `${project}/models`, { slug: 'openai/gpt-4o', inputMicrosPer1k: 2500, outputMicrosPer1k: 10000 });
  await call('POST', `${project}/models/remove`, { slug: 'openai/gpt-4o' });
  // A new provider's first key creates its secret; the next one puts a new version.
  for (const apiKey of ['sk-console-first-0123', 'sk-console-second-0123']) {
    await call('PUT', `${project}/providers/mistral`, { apiKey, baseUrl: options.upstreamBaseUrl, protocol: 'openai' });
  }
  await call('GET', `${project}/members`);
  await call('POST', `${project}/members`, { member: 'max@example.com', role: 'member' });
  await call('POST', `${project}/members/remove`, { member: 'max@example.com' });
  const created = (await call('POST', `${project}/keys`, { name: 'console' })) as { id: string };
  await call('GET', `${project}/keys`);
  await call('POST', `${project}/keys/${created.id}/disable`);
  await call('POST', `${project}/keys/${created.id}/enable`);
  await Promise.all([call('POST', `${project}/keys/${created.id}/revoke`), call('POST', `${project}/keys/${created.id}/revoke`)]);
  await call('GET', `${project}/audit`);
  const usage = await handler(functionUrlEvent({ method: 'GET', path: `/console/api${project}/usage?from=2025-03-01&to=2025-03-31`, headers }), lambdaContext('console'));
  expect(usage.statusCode, String(usage.body)).toBe(200);
  const csv = await handler(functionUrlEvent({ method: 'GET', path: `/console/api${project}/usage.csv?from=2025-03-01&to=2025-03-31`, headers }), lambdaContext('console'));
  expect(csv.statusCode, String(csv.body)).toBe(200);
}
