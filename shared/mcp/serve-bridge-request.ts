import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { GatewayError } from '../core/errors.ts';
import { mcpAccessOf } from '../core/mcp-access.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import { admitRequest } from '../pipeline/admit-request.ts';
import { readAttribution } from '../pipeline/attribution.ts';
import { MAX_REQUEST_BODY_BYTES, type GatewayServices } from '../pipeline/gateway-services.ts';
import { originBudgetMs } from '../pipeline/origin-budget.ts';
import type { RouteHandler } from '../pipeline/route-group.ts';
import { admitToolCalls, countToolCalls } from './admit-tool-calls.ts';
import { chooseAnswerFormat, type AnswerFormat } from './answer-format.ts';
import type { BridgeContext } from './bridge-context.ts';
import { callRequestIds } from './call-request-ids.ts';
import { withoutCancelledRequests } from './cancelled-in-batch.ts';
import { createBridgeServer } from './create-bridge-server.ts';
import { readBridgeMessage } from './read-bridge-message.ts';
import { createUpstreamPool } from './upstream-pool.ts';
import { responseHeaders, toWebRequest, untilDone } from './web-exchange.ts';

export interface BridgeSettings {
  /** How long an upstream MCP server may take to connect, and to answer each request. */
  upstreamTimeoutMs: number;
}

function mcpDisabled(projectId: string): GatewayError {
  return new GatewayError(
    'permission',
    `The tool bridge (MCP) is not enabled for the project "${projectId}". An administrator enables it with: npm run --silent admin -- project update ${projectId} --mcp on`,
    { code: 'mcp_disabled' },
  );
}

/** POST answers as JSON or SSE as Accept asks; DELETE ends nothing (no sessions) and is answered by the transport. */
function answerFormatOf(request: GatewayRequest): AnswerFormat {
  if (request.method !== 'POST') return 'json';
  const format = chooseAnswerFormat(request.headers.accept);
  if (!format) throw new GatewayError('invalid_request', 'Not Acceptable: accept application/json or text/event-stream.', { code: 'not_acceptable', status: 406 });
  return format;
}

/**
 * A JSON answer's deadline behind CloudFront, which answers 504 when its origin sends nothing for its read
 * timeout (the tool would run on, metered, and a client's retry run it twice): the JSON budget the route
 * groups keep (plan-targets.ts). An SSE answer sends heartbeats meanwhile and has none.
 */
function answerDeadline(format: AnswerFormat, services: GatewayServices, receivedAt: number): { answerBy?: number } {
  const { originReadTimeoutMs } = services.settings;
  return format === 'json' && originReadTimeoutMs !== undefined ? { answerBy: receivedAt + originBudgetMs(originReadTimeoutMs) } : {};
}

/**
 * `/mcp/v1`, the tool bridge (Streamable HTTP, stateless): admit the key and the project (the bridge
 * must be on), count the tool calls against the request limits, then let the MCP SDK's server and
 * transport, built for this request alone, answer through the project's upstream servers. The request's
 * upstream sessions end, and every tool call is metered, before the answer does.
 */
export function createBridgeHandler(settings: BridgeSettings): RouteHandler {
  return async (request, services, route) => {
    const { key, config } = await admitRequest(request, services, 'mcp');
    const { project } = config;
    if (!project.mcp) throw mcpDisabled(project.projectId);
    const format = answerFormatOf(request);
    const posted = request.method === 'POST';
    const message = posted ? readBridgeMessage(request) : undefined;
    // What the SDK is given; call positions (callRequestIds) stay those of the batch the client sent.
    const served = withoutCancelledRequests(message);
    const limitHeaders = posted ? await admitToolCalls(services, key, project, countToolCalls(served)) : {};

    const access = mcpAccessOf(key);
    const abort = new AbortController();
    const inFlight: Array<Promise<unknown>> = [];
    const pool = createUpstreamPool({
      projectId: project.projectId,
      services,
      timeoutMs: settings.upstreamTimeoutMs,
      signal: abort.signal,
      ...answerDeadline(format, services, route.receivedAt),
    });
    const context: BridgeContext = {
      services,
      route,
      key,
      project,
      attribution: readAttribution(request.headers),
      servers: new Map([...(config.mcpServers ?? new Map()).entries()].filter(([name]) => access.allowsServer(name))),
      access,
      pool,
      signal: abort.signal,
      format,
      callRequestId: callRequestIds(message, route.requestId),
      track: (work) => void inFlight.push(work.catch(() => undefined)),
    };
    const server = createBridgeServer(context);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: format === 'json',
      keepAliveMs: services.settings.heartbeatIntervalMs,
      maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
    });
    const done = async () => {
      await Promise.all(inFlight);
      pool.release();
      await server.close().catch(() => undefined);
    };
    let response: Response;
    try {
      await server.connect(transport);
      // The message parsed once: the transport validates it without parsing the body again.
      response = await transport.handleRequest(toWebRequest(request), served === undefined ? undefined : { parsedBody: served });
    } catch (error) {
      abort.abort();
      await done();
      throw error;
    }
    const headers = { ...responseHeaders(response), ...limitHeaders };
    if (response.body && response.headers.get('content-type')?.startsWith('text/event-stream')) {
      return { status: response.status, headers, body: untilDone(response.body, { cancelled: () => abort.abort(), done }) };
    }
    const text = await response.text();
    const body = response.status === 200 ? batchAnsweredAsArray(message, text) : text;
    await done();
    return { status: response.status, headers, body } satisfies GatewayResponse;
  };
}

/**
 * A batch's JSON answer is an array, even of one answer (JSON-RPC 2.0 §6): the SDK's transport answers a
 * lone one bare, as it does a batch of one request, or one whose other requests were cancelled. A refusal
 * of the whole POST (a 4xx) stays one error object, as §6 has a batch it cannot read answered.
 */
function batchAnsweredAsArray(message: unknown, body: string): string {
  return Array.isArray(message) && body.startsWith('{') ? `[${body}]` : body;
}
