import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { redactSecrets } from '../transport/upstream-errors.ts';
import { AnswerTooLargeError, CutOffAnswerError } from './answer-errors.ts';
import { MissingAnswerError } from './json-answer.ts';
import { isServerError } from './server-errors.ts';
import { isStreamableHttpError } from './upstream-client.ts';

/**
 * Why an upstream MCP server gave no usable answer: it took too long, could not be reached (refused,
 * reset, an HTTP error, its headers unreadable), answered something that is not MCP (a body that is not
 * JSON, a message or result its schema refuses), began to answer but was cut off (the connection lost,
 * its stream ended mid-event), answered more than the bridge takes in one answer, answered with a
 * JSON-RPC error of its own, or the gateway stopped waiting because its client went away.
 */
export interface UpstreamFailure {
  server: string;
  kind: 'timeout' | 'unavailable' | 'invalid' | 'interrupted' | 'too_large' | 'error' | 'cancelled';
  /** Names the server; never holds one of its credentials (header values or their parts: headerSecrets). */
  message: string;
  /** The server's own JSON-RPC error code, for kind `error`. */
  code?: number;
}

export type InvalidAnswer = SyntaxError | z.core.$ZodError | MissingAnswerError;

/**
 * A reply the SDK could not read: JSON.parse's SyntaxError, or the schema's error (zod, as the SDK
 * validates messages and results); or one the bridge found without the answer (a JSON body holding only a
 * notification). Such a server was reached; a tool it ran may have done its work.
 */
export function isInvalidAnswer(error: unknown): error is InvalidAnswer {
  return error instanceof SyntaxError || error instanceof z.core.$ZodError || error instanceof MissingAnswerError;
}

/** The first thing wrong with it, on one line (`tools[1].inputSchema.type: Invalid input: …`), not the whole issue list. */
function describeInvalidAnswer(error: InvalidAnswer): string {
  if (error instanceof SyntaxError) return `not JSON (${error.message})`;
  if (error instanceof MissingAnswerError) return error.message;
  const [first] = error.issues;
  if (!first) return 'a message the MCP schema refuses';
  const path = first.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('').replace(/^\./, '');
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return `${path ? `${path}: ` : ''}${first.message}${more}`;
}

function describeCause(error: unknown): string {
  if (isInvalidAnswer(error)) return describeInvalidAnswer(error);
  if (isStreamableHttpError(error) && error.code !== undefined && error.code > 0) {
    return `HTTP ${error.code}: ${error.message.replace(/^Streamable HTTP error: (Error POSTing to endpoint: )?/, '')}`;
  }
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`.replace(/^MCP error -?\d+: /, '');
}

/** `secrets`: the server's credentials (headerSecrets), taken out of what it said, since errors may echo what they were sent. */
export function describeUpstreamFailure(server: string, error: unknown, context: { secrets: readonly string[]; timeoutMs: number; answerBound?: boolean; cancelled: boolean }): UpstreamFailure {
  const said = redactSecrets(describeCause(error), context.secrets).slice(0, 500);
  if (context.cancelled) return { server, kind: 'cancelled', message: `The request to the MCP server "${server}" was cancelled: the client went away.` };
  // Before the codes: a server may answer with the SDK's own (-32000 connection closed, -32001 time-out).
  if (isServerError(error)) {
    return { server, kind: 'error', code: error.code, message: `The MCP server "${server}" answered with an error: ${said}` };
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    const within = `${Math.round(context.timeoutMs / 100) / 10} s`;
    const why = context.answerBound ? `, what was left of the time a JSON answer may take; a client that accepts text/event-stream is answered as a stream, which may take longer` : '';
    return { server, kind: 'timeout', message: `The MCP server "${server}" did not answer within ${within}${why}.` };
  }
  if (error instanceof AnswerTooLargeError) {
    return { server, kind: 'too_large', message: `The MCP server "${server}" answered with ${said}.` };
  }
  if (error instanceof CutOffAnswerError) {
    return { server, kind: 'interrupted', message: `The MCP server "${server}" was reached, but its answer was cut off: ${said}` };
  }
  if (isInvalidAnswer(error)) {
    return { server, kind: 'invalid', message: `The MCP server "${server}" answered with something that is not valid MCP: ${said}` };
  }
  // Any other McpError is the SDK's own (its connection closed) or the bridge's (an answer stream ended).
  return { server, kind: 'unavailable', message: `The MCP server "${server}" could not be reached: ${said}` };
}

/**
 * A JSON-RPC error the bridge answers with. The SDK's server renders any thrown error from its `code`,
 * `message` and `data`; unlike McpError, the message stays as written (no "MCP error -32602:" prefix).
 */
export class BridgeRpcError extends Error {
  override readonly name = 'BridgeRpcError';
  readonly code: number;
  readonly data?: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** The JSON-RPC error a client gets for a failure where the method has no error result of its own. */
export function toJsonRpcError(failure: UpstreamFailure): BridgeRpcError {
  return new BridgeRpcError(failure.code ?? ErrorCode.InternalError, failure.message, { server: failure.server, reason: failure.kind });
}
