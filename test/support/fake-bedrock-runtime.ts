import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkSigV4, type SigV4Authorization, type SigV4Verdict } from './sigv4-check.ts';

/** How a request to the fake runtime was authorized. */
export type BedrockAuthorization = SigV4Authorization | { kind: 'bearer'; token: string };

/** What the fake Bedrock runtime saw of one (authorized) request. */
export interface BedrockRequest {
  /** The model id as Bedrock reads it from the path (percent-decoded). */
  model: string;
  operation: 'invoke' | 'invoke-with-response-stream' | 'converse' | 'converse-stream';
  rawPath: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  authorization: BedrockAuthorization;
}

export type BedrockScript = (request: BedrockRequest, response: ServerResponse) => void | Promise<void>;

export interface FakeBedrockRuntime {
  /** What to give `provider set … --base-url` (Bedrock's base URL is the host). */
  baseUrl: string;
  /** Requests that passed authorization. */
  received: BedrockRequest[];
  /** Requests refused (a bad signature, the wrong region or service, no credential), with the reason. */
  refused: Array<{ rawPath: string; reason: string }>;
  answerWith(script: BedrockScript): void;
  close(): Promise<void>;
}

export interface FakeBedrockOptions {
  /** The region the runtime serves: a signature scoped to another is refused, as AWS does. */
  region: string;
  /** Secret keys by access key id: what a signature is checked against. */
  credentials: Record<string, { secretAccessKey: string; sessionToken?: string }>;
  /** Bedrock API keys accepted as bearer tokens. */
  apiKeys?: string[];
}

const PATH = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|converse|converse-stream)$/;

/**
 * A fake of Bedrock's runtime endpoint on loopback. Every request must carry an AWS Signature V4 for the
 * service `bedrock` and the runtime's region, made with one of the known credentials over exactly the
 * method, path, signed headers and body received (the body's SHA-256 included): the fake signs the
 * received request again with the AWS SDK's signer and compares. A Bedrock API key (bearer) is accepted
 * when configured. Refusals are Bedrock's: 403 with `x-amzn-errortype`. A Converse request that breaks a rule
 * the real runtime enforces (a conversation with tool blocks and no toolConfig, a toolUseId outside
 * `[a-zA-Z0-9_-]{1,64}`), or a Claude body with a tool call id outside Claude's `[a-zA-Z0-9_-]+`, is
 * refused as Bedrock refuses it: 400 ValidationException.
 */
export async function startFakeBedrockRuntime(options: FakeBedrockOptions): Promise<FakeBedrockRuntime> {
  const received: BedrockRequest[] = [];
  const refused: FakeBedrockRuntime['refused'] = [];
  let script: BedrockScript = (_request, response) => sendBedrockError(response, 500, 'InternalServerException', 'No answer scripted.');
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void handle(request, Buffer.concat(chunks).toString('utf8'), response).catch(() => response.destroy());
    });
  });

  async function handle(request: IncomingMessage, bodyText: string, response: ServerResponse): Promise<void> {
    const rawPath = request.url ?? '/';
    const verdict = await authorize(request, bodyText, options);
    if ('refusal' in verdict) {
      refused.push({ rawPath, reason: verdict.refusal.message });
      return sendBedrockError(response, 403, verdict.refusal.type, verdict.refusal.message);
    }
    const match = PATH.exec(rawPath);
    if (!match || request.method !== 'POST') return sendBedrockError(response, 404, 'UnknownOperationException', `No operation at ${request.method} ${rawPath}.`);
    const seen: BedrockRequest = {
      model: decodeURIComponent(match[1] ?? ''),
      operation: match[2] as BedrockRequest['operation'],
      rawPath,
      headers: request.headers,
      body: bodyText ? (JSON.parse(bodyText) as Record<string, unknown>) : {},
      authorization: verdict.authorization,
    };
    received.push(seen);
    const invalid = validationError(seen);
    if (invalid) return sendBedrockError(response, 400, 'ValidationException', invalid);
    await script(seen, response);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    refused,
    answerWith(next) {
      script = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Converse's constraint on a toolUseId (ToolUseBlock, ToolResultBlock in Bedrock's API reference). */
const TOOL_USE_ID = /^[a-zA-Z0-9_-]{1,64}$/;

/** Claude's own rule on a tool call id, which InvokeModel enforces as Anthropic's API does. */
const CLAUDE_TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;

/** The rules the real runtime enforces whatever the model (the ones the gateway's writers must keep). */
function validationError(request: BedrockRequest): string | undefined {
  if (request.operation === 'invoke' || request.operation === 'invoke-with-response-stream') return invokeValidationError(request);
  return converseValidationError(request);
}

function invokeValidationError(request: BedrockRequest): string | undefined {
  const messages = Array.isArray(request.body.messages) ? (request.body.messages as Array<{ content?: unknown }>) : [];
  for (const [messageIndex, message] of messages.entries()) {
    for (const [blockIndex, block] of (Array.isArray(message.content) ? (message.content as Array<Record<string, unknown>>) : []).entries()) {
      const [field, id] = block.type === 'tool_use' ? ['tool_use.id', block.id] : block.type === 'tool_result' ? ['tool_result.tool_use_id', block.tool_use_id] : [];
      if (field && !CLAUDE_TOOL_USE_ID.test(String(id))) return `messages.${messageIndex}.content.${blockIndex}.${field}: String should match pattern '^[a-zA-Z0-9_-]+$'`;
    }
  }
  return undefined;
}

function converseValidationError(request: BedrockRequest): string | undefined {
  const messages = Array.isArray(request.body.messages) ? (request.body.messages as Array<{ role?: string; content?: unknown }>) : [];
  const holdsToolBlocks = messages.some((message) => Array.isArray(message.content) && message.content.some((block: Record<string, unknown>) => 'toolUse' in block || 'toolResult' in block));
  if (holdsToolBlocks && !request.body.toolConfig) return 'The toolConfig field must be defined when using toolUse and toolResult content blocks.';
  if (messages[0]?.role !== 'user') return 'A conversation must start with a user message. Try again with a conversation that starts with a user message.';
  if (messages.some((message, index) => index > 0 && message.role === messages[index - 1]?.role)) {
    return 'A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.';
  }
  for (const [messageIndex, message] of messages.entries()) {
    for (const [blockIndex, block] of (Array.isArray(message.content) ? (message.content as Array<Record<string, { toolUseId?: unknown }>>) : []).entries()) {
      const [kind, id] = block.toolUse ? ['toolUse', block.toolUse.toolUseId] : block.toolResult ? ['toolResult', block.toolResult.toolUseId] : [];
      if (kind && !TOOL_USE_ID.test(String(id))) {
        return `1 validation error detected: Value '${String(id)}' at 'messages.${messageIndex + 1}.member.content.${blockIndex + 1}.member.${kind}.toolUseId' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+`;
      }
    }
  }
  return undefined;
}

async function authorize(request: IncomingMessage, body: string, options: FakeBedrockOptions): Promise<SigV4Verdict<BedrockAuthorization>> {
  const header = request.headers.authorization ?? '';
  if (header.startsWith('Bearer ')) {
    const token = header.slice('Bearer '.length);
    return options.apiKeys?.includes(token) ? { authorization: { kind: 'bearer', token } } : { refusal: { type: 'UnrecognizedClientException', message: 'The API key is not valid.' } };
  }
  return checkSigV4(request, body, { service: 'bedrock', region: options.region, credentials: options.credentials });
}

/** Bedrock's error answer: the type in `x-amzn-errortype` (with its namespace), `{"message"}` as the body. */
export function sendBedrockError(response: ServerResponse, status: number, errorType: string, message: string): void {
  response
    .writeHead(status, {
      'content-type': 'application/json',
      'x-amzn-errortype': `${errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
      'x-amzn-requestid': 'fake-request-id',
    })
    .end(JSON.stringify({ message }));
}

/** A JSON answer (InvokeModel, Converse). */
export function sendBedrockJson(response: ServerResponse, payload: unknown): void {
  response.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': 'fake-request-id' }).end(typeof payload === 'string' ? payload : JSON.stringify(payload));
}

/**
 * An event-stream answer (InvokeModelWithResponseStream, ConverseStream), each message written in two
 * pieces split mid-message, so that the gateway's decoder must gather bytes across reads.
 */
export async function sendEventStream(response: ServerResponse, frames: readonly Uint8Array[], pauseMs = 1): Promise<void> {
  response.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': 'fake-request-id' });
  for (const frame of frames) {
    const middle = Math.floor(frame.byteLength / 2);
    for (const piece of [frame.subarray(0, middle), frame.subarray(middle)]) {
      response.write(piece);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
  response.end();
}
