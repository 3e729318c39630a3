import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolResultSchema,
  ErrorCode,
  type CallToolRequest,
  type CallToolResult,
  type Progress,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { splitNamespacedName } from '../core/mcp-names.ts';
import type { McpServerConfig } from '../core/mcp-server-config.ts';
import { createUsageSettlement } from '../pipeline/record-usage.ts';
import type { BridgeContext } from './bridge-context.ts';
import { reachableServer } from './bridge-lookups.ts';
import { describeToolCall, failedCallOutcome, TOOL_CALL_ADMISSION } from './tool-call-outcome.ts';
import { namespaceContent } from './namespace-results.ts';
import { BridgeRpcError, toJsonRpcError } from './upstream-failure.ts';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
type CallParams = CallToolRequest['params'];

/** The server and tool a call goes to, and the request id its usage record carries. */
interface ToolCallTarget {
  recordId: string;
  server: McpServerConfig;
  tool: string;
}

/**
 * tools/call of a `<server>__<tool>` the key may call; any other name is unknown (a tool the key may not
 * call is indistinguishable from one that does not exist). The call is metered whatever happens.
 */
export function callBridgedTool(context: BridgeContext, params: CallParams, extra: Extra): Promise<CallToolResult> {
  // Asked of every call, even one refused below: calls that repeat a JSON-RPC id take its positions in turn.
  const recordId = context.callRequestId(extra.requestId);
  const target = splitNamespacedName(params.name);
  const server = reachableServer(context, target?.server);
  if (!target || !server || !context.access.allowsTool(server.name, target.name)) {
    throw new BridgeRpcError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
  }
  const call = meteredToolCall(context, { recordId, server, tool: target.name }, params, extra);
  context.track(call);
  return call;
}

/** The params as the upstream gets them: its own tool name, and the client's progress token left out (the SDK sets its own). */
function upstreamParams(params: CallParams, tool: string) {
  const { _meta: meta, ...rest } = params;
  const { progressToken, ...otherMeta } = meta ?? {};
  return { params: { ...rest, name: tool, ...(Object.keys(otherMeta).length > 0 ? { _meta: otherMeta } : {}) }, progressToken };
}

/**
 * Calls the tool upstream and hands one usage record to the usage sink on every exit (once the client's
 * answer has ended, where the host defers it, as a route group in Lambda does). A server that is down or too slow answers as an `isError` result naming it (the model
 * reads it and moves on); an error the server itself answered with stays a JSON-RPC error.
 */
async function meteredToolCall(context: BridgeContext, target: ToolCallTarget, params: CallParams, extra: Extra): Promise<CallToolResult> {
  const { services, route, key, project } = context;
  const { server, tool } = target;
  const settlement = createUsageSettlement(services, {
    requestId: target.recordId,
    projectId: project.projectId,
    keyId: key.keyId,
    endpoint: 'mcp.tools_call',
    attribution: context.attribution,
    startedAt: route.receivedAt,
    admission: TOOL_CALL_ADMISSION,
  }, route.afterAnswer);
  const { params: sent, progressToken } = upstreamParams(params, tool);
  const call = describeToolCall(server.name, tool, context.format === 'sse', Buffer.byteLength(JSON.stringify(sent)));
  const onprogress =
    progressToken === undefined
      ? undefined
      : (progress: Progress) =>
          void extra.sendNotification({ method: 'notifications/progress', params: { ...context.pool.redact(server, progress), progressToken } }).catch(() => undefined);
  const signal = AbortSignal.any([context.signal, extra.signal]);
  let outcome = failedCallOutcome(call, { kind: 'internal' });
  try {
    const answer = await context.pool.run(server, (client) =>
      client.request({ method: 'tools/call', params: sent }, CallToolResultSchema, {
        timeout: context.pool.stepTimeoutMs(),
        // A tool that reports progress may take longer than the time-out, but not longer than a request (or a JSON answer) may.
        resetTimeoutOnProgress: true,
        maxTotalTimeout: context.pool.totalTimeoutMs(services.settings.requestDeadlineMs),
        signal,
        ...(onprogress ? { onprogress } : {}),
      }),
    );
    const upstreamRespondedAt = services.clock.now();
    if (!answer.ok) {
      outcome = failedCallOutcome(call, { kind: signal.aborted ? 'cancelled' : answer.failure.kind });
      if (answer.failure.kind === 'error') throw toJsonRpcError(answer.failure);
      return { content: [{ type: 'text', text: answer.failure.message }], isError: true };
    }
    const result = answer.value;
    outcome = {
      ...call,
      status: result.isError ? 'failed' : 'completed',
      httpStatus: 200,
      ...(result.isError ? { errorCode: 'tool_error' } : {}),
      responseBytes: Buffer.byteLength(JSON.stringify(result)),
      upstreamRespondedAt,
    };
    return { ...result, content: result.content.map((content) => namespaceContent(server.name, content)) };
  } finally {
    await settlement.settle(outcome);
  }
}
