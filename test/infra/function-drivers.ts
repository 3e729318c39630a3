import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { expect } from 'vitest';
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

export async function exerciseAdmin(
  environment: Record<string, string>,
  upstreamBaseUrl: string,
  mcp: { url: string; header: { name: string; value: string } },
  bedrock: { baseUrl: string; region: string; models: readonly string[] },
): Promise<{ key: string }> {
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
  await run({ command: 'member.remove', projectId: 'acme', member: 'mallory' });
  await run({ command: 'member.restore', projectId: 'acme', member: 'mallory' });
  const { key } = await run<{ key: string }>({ command: 'key.create', projectId: 'acme', name: 'laptop', rpm: 500 });
  const { id: spareKey } = await run<{ id: string }>({ command: 'key.create', projectId: 'acme', name: 'spare' });
  await run({ command: 'key.list', projectId: 'acme' });
  await run({ command: 'key.update', projectId: 'acme', keyId: spareKey, name: 'renamed', rpm: 'none' });
  // Two revocations at once: the loser's conditional update fails and it reads the key back.
  await Promise.all([run({ command: 'key.revoke', projectId: 'acme', keyId: spareKey }), run({ command: 'key.revoke', projectId: 'acme', keyId: spareKey })]);
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
  await run({ command: 'key.update', projectId: 'acme', keyId: spareKey, mcpServers: ['docs'], mcpTools: 'none' });
  return { key };
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

/** Writes two records (one postpaid, one prepaid) of `known`'s project, the first with `known`'s request id. */
export async function exerciseWriter(environment: Record<string, string>, known: { projectId: string; requestId: string }): Promise<void> {
  const handler = await loadHandler<(event: SQSEvent, context: unknown) => Promise<SQSBatchResponse>>('functions/writer/handler.ts', environment);
  const records = [sampleRecord(known), sampleRecord({ projectId: known.projectId, prepaid: true, reservedNanos: 5_000, costNanos: 1_000 })];
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
