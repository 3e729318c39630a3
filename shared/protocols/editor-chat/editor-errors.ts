import type { CanonicalErrorType } from '../../canonical/canonical-events.ts';
import { UPSTREAM_ERROR_CODES } from '../../canonical/upstream-error-codes.ts';
import { GatewayError } from '../../core/errors.ts';
import { jsonResponse, type GatewayResponse } from '../../http/gateway-http.ts';
import { openAiErrorBody } from '../openai-chat/openai-errors.ts';

/**
 * The editor shows a refused request as `Request failed with status code N: <body>`, and nothing else:
 * so errors that come from how the editor is set up say where in its settings to fix them.
 */
const SETUP_HINTS: Readonly<Record<string, string>> = {
  invalid_api_key: 'In Cursor, put the gateway project key (gw.…) in Settings → Models → OpenAI API Key, with "Override OpenAI Base URL" set to the gateway URL followed by /v1/editor.',
  model_not_allowed: 'In Cursor, add the model under a name this project allows (its slug, alias or bare id; GET /v1/editor/models lists them) in Settings → Models.',
  ambiguous_model: 'In Cursor, add the model by its provider-prefixed slug in Settings → Models.',
  // A path no route serves says about the base URL what the path shows: editor-base-url-hint.ts.
};

/** A gateway error as the editor shows it: OpenAI's error body, with what to change in the editor when the setup is at fault. */
export function renderEditorError(error: GatewayError, headers: Record<string, string>): GatewayResponse {
  const body = openAiErrorBody(error);
  const hint = SETUP_HINTS[error.code];
  const shown = hint ? { error: { ...body.error, message: `${body.error.message} ${hint}` } } : body;
  return jsonResponse(error.status, shown, { ...error.headers, ...headers });
}

/** An upstream's in-band failure, in the status and words the editor shows when nothing was streamed yet (its code: UPSTREAM_ERROR_CODES). */
const HELD_FAILURES: Readonly<Record<CanonicalErrorType, { kind: GatewayError['kind']; status: number; lead: string }>> = {
  'invalid-request': { kind: 'invalid_request', status: 400, lead: 'The provider refused the request' },
  authentication: { kind: 'upstream', status: 502, lead: "The provider rejected the project's credential (an administrator must update it with \"provider set\")" },
  permission: { kind: 'upstream', status: 502, lead: "The provider refused the project's credential for this request (an administrator must check it with \"provider set\")" },
  'not-found': { kind: 'not_found', status: 404, lead: 'The provider does not know what the request names' },
  'request-too-large': { kind: 'request_too_large', status: 413, lead: 'The provider found the request too large (start a new chat, or drop attached context)' },
  'rate-limit': { kind: 'rate_limited', status: 429, lead: 'The provider is rate limiting requests; retry shortly' },
  billing: { kind: 'payment_required', status: 429, lead: "The provider account behind this model has no quota left (an administrator must top it up or change the project's provider key)" },
  overloaded: { kind: 'upstream', status: 503, lead: 'The provider is overloaded; retry shortly' },
  timeout: { kind: 'upstream', status: 504, lead: 'The provider timed out' },
  server: { kind: 'upstream', status: 502, lead: 'The provider failed' },
};

/** An upstream failure that came before the stream wrote anything, as the error the editor is answered with. */
export function heldUpstreamFailure(errorType: CanonicalErrorType, message: string): GatewayError {
  const failure = HELD_FAILURES[errorType];
  return new GatewayError(failure.kind, `${failure.lead}: ${message}`, { code: UPSTREAM_ERROR_CODES[errorType], status: failure.status });
}

/** An error the editor shows inside an answer already under way: as text of its own, set apart from the answer. */
export function inBandErrorText(message: string): string {
  return `\n\n[The gateway could not finish this answer: ${message}]`;
}

/**
 * A gateway error after the first streamed byte without a stream's state (a stream committed before the
 * provider answered, then failed): an answer that says so, ended as the editor expects.
 */
export function editorStreamErrorFrame(error: GatewayError): string {
  const envelope = { id: 'chatcmpl-gateway-error', object: 'chat.completion.chunk', created: 0, model: '' };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null) => `data: ${JSON.stringify({ ...envelope, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] })}\n\n`;
  return chunk({ role: 'assistant', content: '' }, null) + chunk({ content: inBandErrorText(error.publicMessage).trimStart() }, null) + chunk({}, 'stop') + 'data: [DONE]\n\n';
}
