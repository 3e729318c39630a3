import { Readable } from 'node:stream';
import { GatewayError } from '../core/errors.ts';

/**
 * The framework-free request and response the route groups speak. The Lambda adapter builds them from
 * function-URL events; nothing in here knows about Lambda or Node's http module.
 */
export interface GatewayRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Header names in lower case; repeated headers joined with "," as function URLs deliver them. */
  headers: Record<string, string | undefined>;
  /** The body's bytes as the client sent them (uploads stay intact; JSON routes decode with bodyText). */
  body: Uint8Array;
  sourceIp: string;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text, decoded strictly: bytes that are not UTF-8 are a 400, never replaced and forwarded. */
export function bodyText(request: Pick<GatewayRequest, 'body'>): string {
  try {
    return strictUtf8.decode(request.body);
  } catch {
    throw new GatewayError('invalid_request', 'The request body is not valid UTF-8.', { code: 'invalid_utf8' });
  }
}

/** Parses request text as JSON; text that is not JSON is a 400 naming it. */
export function parseRequestJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new GatewayError('invalid_request', 'The request body is not valid JSON.', { code: 'invalid_json' });
  }
}

/**
 * A request body parsed as JSON, once per request. Read-only: every reader of the request sees this one
 * value (a parser validates it into objects of its own), so nothing may change it in place.
 */
export class ParsedJsonBody {
  readonly value: unknown;

  constructor(value: unknown) {
    this.value = value;
  }
}

const parsedBodies = new WeakMap<Uint8Array, ParsedJsonBody | GatewayError>();

/**
 * The body decoded and parsed as JSON once for the request, whoever asks first: on `/v1/chat/completions`
 * the editor client's detection reads it and the endpoint's parser then validates the same value, so a
 * large body (a coding agent's tools and history) is not parsed twice. A body that is not UTF-8 or not
 * JSON throws the same 400 to every caller.
 */
export function parsedJsonBody(request: Pick<GatewayRequest, 'body'>): ParsedJsonBody {
  let parsed = parsedBodies.get(request.body);
  if (!parsed) {
    try {
      parsed = new ParsedJsonBody(parseRequestJson(bodyText(request)));
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      parsed = error;
    }
    parsedBodies.set(request.body, parsed);
  }
  if (parsed instanceof GatewayError) throw parsed;
  return parsed;
}

/**
 * A body sent as it comes: a web stream, or a Node stream (the stream relay's, which the function URL's
 * response is piped from with no web stream between; docs/performance.md).
 */
export type AnswerStream = ReadableStream<Uint8Array> | Readable;

export interface GatewayResponse {
  status: number;
  headers: Record<string, string>;
  body: string | AnswerStream;
  /**
   * Work that waits until the client's answer has ended (handing the usage record over): the host runs it
   * once the body is written, and does not end the invocation before it is done.
   */
  afterAnswer?: () => Promise<void>;
}

/** An answer stream as a web stream, for the few that read one chunk by chunk (a held status, an early commit). */
export function asWebStream(stream: AnswerStream): ReadableStream<Uint8Array> {
  return stream instanceof Readable ? (Readable.toWeb(stream) as ReadableStream<Uint8Array>) : stream;
}

/** Lets an answer stream go unread: what produces it settles what it holds (a relay its usage, as cancelled). */
export async function discardAnswerStream(stream: AnswerStream): Promise<void> {
  if (stream instanceof Readable) stream.destroy();
  else await stream.cancel().catch(() => undefined);
}

export function jsonResponse(status: number, payload: unknown, headers: Record<string, string> = {}): GatewayResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(payload),
  };
}
