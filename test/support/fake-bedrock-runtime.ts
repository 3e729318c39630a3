import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkSigV4, type SigV4Authorization, type SigV4Verdict } from './sigv4-check.ts';
import { claudeSamplingRule } from '../../shared/protocols/anthropic-messages/claude-thinking-mode.ts';
import { anthropicRefusalReason } from './anthropic-refusals.ts';

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
  // Claude on InvokeModel validates the Messages body as Anthropic's API does (the model is in the path).
  const { anthropic_version: version, anthropic_beta: _betas, ...messagesBody } = request.body;
  if (version === undefined) return 'Malformed input request: #: required key [anthropic_version] not found, please reformat your input and try again.';
  const refusal = anthropicRefusalReason({ ...messagesBody, model: request.model });
  if (refusal) return refusal;
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
      const text = (block as { text?: unknown }).text;
      if (typeof text === 'string' && text.trim() === '') {
        return `The text field in the ContentBlock object at messages.${messageIndex}.content.${blockIndex} is blank. Add text to the text field, and try again.`;
      }
      const image = (block as { image?: { format?: string } }).image;
      if (image && !['png', 'jpeg', 'gif', 'webp'].includes(image.format ?? '')) return `1 validation error detected: Value '${String(image.format)}' at 'messages.${messageIndex + 1}.member.content.${blockIndex + 1}.member.image.format' failed to satisfy constraint: Member must satisfy enum value set: [gif, jpeg, png, webp]`;
    }
    const calls = blockIds(message.content, 'toolUse');
    const results = blockIds(messages[messageIndex + 1]?.content, 'toolResult');
    const unanswered = calls.filter((id) => !results.includes(id));
    if (messageIndex + 1 < messages.length && unanswered.length > 0) return `Expected toolResult blocks at messages.${messageIndex + 1}.content for the following Ids: ${unanswered.join(', ')}`;
  }
  const tools = ((request.body.toolConfig as { tools?: Array<{ toolSpec?: { name?: string } }> } | undefined)?.tools ?? []);
  for (const [index, tool] of tools.entries()) {
    if (tool.toolSpec && !TOOL_NAME.test(tool.toolSpec.name ?? '')) {
      return `1 validation error detected: Value '${String(tool.toolSpec.name)}' at 'toolConfig.tools.${index + 1}.member.toolSpec.name' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+`;
    }
  }
  const inference = request.body.inferenceConfig as { temperature?: number; topP?: number } | undefined;
  if (inference?.temperature !== undefined && (inference.temperature < 0 || inference.temperature > 1)) return "1 validation error detected: Value at 'inferenceConfig.temperature' failed to satisfy constraint: Member must have value less than or equal to 1";
  const sampling = claudeSamplingRule(request.model);
  if (sampling === 'neither' && (inference?.temperature !== undefined || inference?.topP !== undefined)) return 'The model returned the following errors: `temperature` is deprecated for this model.';
  if (sampling === 'either' && inference?.temperature !== undefined && inference.topP !== undefined) {
    return 'The model returned the following errors: `temperature` and `top_p` cannot both be specified for this model. Please use only one.';
  }
  return undefined;
}

/** Converse's constraint on a tool's name (ToolSpecification in Bedrock's API reference). */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The ids of a Converse message's toolUse or toolResult blocks. */
function blockIds(content: unknown, kind: 'toolUse' | 'toolResult'): string[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((block: Record<string, { toolUseId?: string } | undefined>) => (block[kind] ? [String(block[kind].toolUseId)] : []));
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
