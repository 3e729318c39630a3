import {
  ErrorCode,
  GetPromptResultSchema,
  ReadResourceResultSchema,
  type GetPromptRequest,
  type GetPromptResult,
  type ReadResourceRequest,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { splitNamespacedName, splitNamespacedUri } from '../core/mcp-names.ts';
import type { McpServerConfig } from '../core/mcp-server-config.ts';
import { upstreamRequestOptions, type BridgeContext } from './bridge-context.ts';
import { namespacePromptMessage, namespaceReadResult } from './namespace-results.ts';
import { BridgeRpcError, toJsonRpcError } from './upstream-failure.ts';

/** The server a namespaced name or URI points to, if the key may reach it; otherwise it does not exist. */
export function reachableServer(context: BridgeContext, server: string | undefined): McpServerConfig | undefined {
  if (server === undefined || !context.access.allowsServer(server)) return undefined;
  return context.servers.get(server);
}

/** resources/read of a `mcp-gateway://<server>/<uri>`: the server's answer, its URIs namespaced again. */
export async function readBridgedResource(context: BridgeContext, params: ReadResourceRequest['params']): Promise<ReadResourceResult> {
  const target = splitNamespacedUri(params.uri);
  const server = reachableServer(context, target?.server);
  if (!target || !server) throw new BridgeRpcError(-32002, `Resource not found: ${params.uri}`, { uri: params.uri });
  const answer = await context.pool.run(server, (client) =>
    client.request({ method: 'resources/read', params: { ...params, uri: target.uri } }, ReadResourceResultSchema, upstreamRequestOptions(context)),
  );
  if (!answer.ok) throw toJsonRpcError(answer.failure);
  return namespaceReadResult(server.name, answer.value);
}

/** prompts/get of a `<server>__<prompt>`. */
export async function getBridgedPrompt(context: BridgeContext, params: GetPromptRequest['params']): Promise<GetPromptResult> {
  const target = splitNamespacedName(params.name);
  const server = reachableServer(context, target?.server);
  if (!target || !server) throw new BridgeRpcError(ErrorCode.InvalidParams, `Unknown prompt: ${params.name}`);
  const answer = await context.pool.run(server, (client) =>
    client.request({ method: 'prompts/get', params: { ...params, name: target.name } }, GetPromptResultSchema, upstreamRequestOptions(context)),
  );
  if (!answer.ok) throw toJsonRpcError(answer.failure);
  return { ...answer.value, messages: answer.value.messages.map((message) => namespacePromptMessage(server.name, message)) };
}
