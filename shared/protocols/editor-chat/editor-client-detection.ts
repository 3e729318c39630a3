import { asJsonObject } from '../../core/json-object.ts';
import { parsedJsonBody, type GatewayRequest } from '../../http/gateway-http.ts';

/** The editor's User-Agent starts with this (matched without regard to case). */
const EDITOR_USER_AGENT = /^cursor\//i;
/** Texts every editor-shaped body holds at least one of: a body without any is parsed only once. */
const SHAPE_MARKERS = ['"input"', 'cursorConversationId', '"tools"'] as const;

/**
 * Whether a request to the legacy `/v1/chat/completions` comes from the editor client, so that it gets
 * the editor profile too: by its User-Agent, or by what only the editor's bodies hold (documented in
 * docs/decisions/editor-route.md):
 * - `metadata.cursorConversationId`;
 * - `input` with `messages` absent or empty (a Responses body sent to chat completions);
 * - a flat function tool (`{type: "function", name, parameters}`: chat nests it under `function`);
 * - a flat custom tool (`{type: "custom", name, format}`: chat nests it under `custom`; Anthropic's
 *   tools carry an `input_schema`).
 * Chat clients (the OpenAI SDKs) nest their tools; Anthropic-shaped bodies have no typed flat tools.
 */
export function isEditorClientRequest(request: Pick<GatewayRequest, 'headers' | 'body'>): boolean {
  if (EDITOR_USER_AGENT.test(request.headers['user-agent'] ?? '')) return true;
  const bytes = Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength);
  if (!SHAPE_MARKERS.some((marker) => bytes.includes(marker))) return false;
  let body: Record<string, unknown> | undefined;
  try {
    // Parsed once for the request: the endpoint that serves it validates this same value.
    body = asJsonObject(parsedJsonBody(request).value);
  } catch {
    // Not UTF-8 or not JSON: the endpoint's parser refuses it, after authentication.
    return false;
  }
  return body !== undefined && hasEditorShape(body);
}

export function hasEditorShape(body: Record<string, unknown>): boolean {
  if (typeof asJsonObject(body.metadata)?.cursorConversationId === 'string') return true;
  const messages = body.messages;
  if (body.input !== undefined && body.input !== null && (messages === undefined || (Array.isArray(messages) && messages.length === 0))) return true;
  const tools = Array.isArray(body.tools) ? body.tools : [];
  return tools.some((tool) => {
    const declared = asJsonObject(tool);
    if (!declared || typeof declared.name !== 'string') return false;
    if (declared.type === 'function') return declared.function === undefined;
    return declared.type === 'custom' && declared.custom === undefined && declared.input_schema === undefined;
  });
}
