import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import { headerSecrets } from '../core/header-secrets.ts';
import { mcpHeaderSecretName, parseMcpHeaders } from '../core/mcp-header-secrets.ts';
import type { McpServerConfig } from '../core/mcp-server-config.ts';
import { loadProviderApiKey } from '../pipeline/admit-request.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { redactAnswer } from './redact-answer.ts';
import { markServerErrors } from './server-errors.ts';
import { describeUpstreamFailure, isInvalidAnswer, type InvalidAnswer, type UpstreamFailure } from './upstream-failure.ts';
import { answerStreamError, isUnansweredStream } from './answer-stream.ts';
import { loadUpstreamClient } from './upstream-client.ts';
import { mcpUpstreamFetch } from './upstream-fetch.ts';

export const BRIDGE_CLIENT_INFO = { name: 'aws-model-gateway', version: '0.1.0' };

/**
 * The SDK's light JSON Schema validator, for its client and server alike (the bundle leaves Ajv out:
 * infra/bundling/bundle-handler.ts). The bridge forwards results unvalidated against tool schemas; the
 * SDK would use it only for features the bridge does not use (output schemas of callTool, elicitation).
 */
export const jsonSchemaValidator = new CfWorkerJsonSchemaValidator();

export interface UpstreamOptions {
  projectId: string;
  services: GatewayServices;
  /** For connecting and for each request; a time-out is reported as the server's failure. */
  timeoutMs: number;
  /**
   * When the answer must be complete (epoch ms), if it must: a JSON answer behind CloudFront, which gives up
   * on an origin that sends nothing for its read timeout. Each step then takes at most what is left.
   */
  answerBy?: number;
  /** Aborted when the bridge's client goes away: every upstream request stops. */
  signal: AbortSignal;
}

export type UpstreamResult<T> = { ok: true; value: T } | { ok: false; failure: UpstreamFailure };

interface Session {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** The server's last message the SDK could not read, which it reports only to onerror. */
  unreadable?: InvalidAnswer;
}

/**
 * Work on a session, its failure told right: a request whose answer stream ended without the answer, after
 * the server sent something the SDK could not read, failed for what it sent (not valid MCP), not for the
 * stream's end. Something unreadable from a call in flight beside it may be taken for it: both failed.
 * An answer cut off is reported as such, whatever was read before it.
 */
async function explainingUnreadable<T>(opened: Session, work: () => Promise<T>): Promise<T> {
  const before = opened.unreadable;
  try {
    return await work();
  } catch (error) {
    throw isUnansweredStream(error) && opened.unreadable !== before ? opened.unreadable : answerStreamError(error);
  }
}

/**
 * The headers of a server's secret. One the store holds unreadable is the gateway's failure, not the
 * server's answer, and its parse error (which may quote the secret) is not passed on.
 */
function storedHeaders(secret: string | undefined): Record<string, string> {
  try {
    return parseMcpHeaders(secret);
  } catch {
    throw new Error('its stored headers cannot be read; set them again with mcp add');
  }
}

/**
 * The upstream MCP servers one bridge request talks to: each connected (an SDK client on the Streamable
 * HTTP transport, the server's headers from the secret store) on first use and reused for the rest of
 * the request, so a batch or an aggregated list costs one handshake per server. Every operation is
 * bounded by the time-out and the request's signal; its failure comes back as a value naming the server,
 * never thrown, so one server's trouble never fails the others. Whatever a server says (answers,
 * failures, progress) comes back with its credentials redacted: they stay server-side.
 */
export function createUpstreamPool(options: UpstreamOptions) {
  const sessions = new Map<string, Promise<Session>>();
  const secretsOf = new Map<string, string[]>();
  const { answerBy } = options;
  /** What is left until the answer must be complete; unbounded without answerBy. */
  const leftMs = () => (answerBy === undefined ? Number.POSITIVE_INFINITY : Math.max(1, answerBy - options.services.clock.now()));
  /** The time a step (connecting, one request) may take now: the time-out, or what is left when that is less. */
  let lastStepMs = options.timeoutMs;
  const stepTimeoutMs = () => (lastStepMs = Math.min(options.timeoutMs, leftMs()));

  async function connect(server: McpServerConfig): Promise<Session> {
    const headers = storedHeaders(await loadProviderApiKey(options.services, options.projectId, mcpHeaderSecretName(server.name)));
    secretsOf.set(server.name, headerSecrets(headers));
    const { Client, StreamableHTTPClientTransport } = await loadUpstreamClient();
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { fetch: mcpUpstreamFetch(options.services.fetch), requestInit: { headers } });
    markServerErrors(transport);
    const client = new Client(BRIDGE_CLIENT_INFO, { capabilities: {}, jsonSchemaValidator });
    const opened: Session = { client, transport };
    client.onerror = (error) => {
      if (isInvalidAnswer(error)) opened.unreadable = error;
    };
    try {
      await explainingUnreadable(opened, () => client.connect(transport, { timeout: stepTimeoutMs(), signal: options.signal }));
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    return opened;
  }

  function session(server: McpServerConfig): Promise<Session> {
    let opened = sessions.get(server.name);
    if (!opened) {
      opened = connect(server);
      sessions.set(server.name, opened);
    }
    return opened;
  }

  return {
    /** Runs one operation on a server's client; a failure (connecting or in the operation) is returned, named. */
    async run<T>(server: McpServerConfig, operation: (client: Client) => Promise<T>): Promise<UpstreamResult<T>> {
      try {
        const opened = await session(server);
        const value = await explainingUnreadable(opened, () => operation(opened.client));
        return { ok: true, value: redactAnswer(value, secretsOf.get(server.name) ?? []) };
      } catch (error) {
        // A time-out is told with the limit its step had (the last one set): the server's own, or what a JSON answer had left.
        const context = { secrets: secretsOf.get(server.name) ?? [], timeoutMs: lastStepMs, answerBound: lastStepMs < options.timeoutMs, cancelled: options.signal.aborted };
        return { ok: false, failure: describeUpstreamFailure(server.name, error, context) };
      }
    },

    stepTimeoutMs,

    /** How long a request may take in all, progress or not: the request's deadline, or what a JSON answer has left. */
    totalTimeoutMs: (deadlineMs: number) => Math.min(deadlineMs, leftMs()),

    /** Something else a server said (a progress notification), its credentials redacted as in `run`. */
    redact<T>(server: McpServerConfig, said: T): T {
      return redactAnswer(said, secretsOf.get(server.name) ?? []);
    },

    /**
     * Ends every upstream session: a best-effort DELETE to servers that gave a session id (not awaited:
     * the client's answer does not wait for it), then the client is closed.
     */
    release(): void {
      for (const opened of sessions.values()) {
        opened
          .then(({ client, transport }) => transport.terminateSession().catch(() => undefined).finally(() => client.close()))
          .catch(() => undefined);
      }
      sessions.clear();
    },
  };
}

export type UpstreamPool = ReturnType<typeof createUpstreamPool>;
