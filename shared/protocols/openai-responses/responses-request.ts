import * as z from 'zod';
import { GatewayError } from '../../core/errors.ts';
import { parseModelRequest, type RequestBodyJson } from '../parse-model-request.ts';
import { gatewayFieldsShape, PROMPT_TRANSFORM_FIELDS, USAGE_ACCOUNTING_FIELDS } from '../routing-fields.ts';
import { isCarriedAnthropicReasoning } from './reasoning-carrier.ts';

/**
 * The fields of a Responses request the gateway reads. Everything else passes to the upstream untouched,
 * so new Responses parameters work without a gateway release.
 */
export const responsesRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.unknown())]).nullish(),
  instructions: z.string().nullish(),
  stream: z.boolean().nullish(),
  max_output_tokens: z.number().int().positive().nullish(),
  previous_response_id: z.string().min(1).nullish(),
  background: z.boolean().nullish(),
  /** Routing-only fields (spec 2.2) and the usage-accounting switch: consumed by the gateway, never sent upstream. */
  ...gatewayFieldsShape,
});
export type ResponsesRequest = z.infer<typeof responsesRequestSchema>;

const gatewayOnlyFields = ['models', 'route', 'provider', ...USAGE_ACCOUNTING_FIELDS, ...PROMPT_TRANSFORM_FIELDS] as const;

/**
 * Parses the client's body, turning every defect into a 400 that names the field. Background responses
 * are refused: the provider would finish them after the gateway's request ended, so nobody would meter them.
 */
export function parseResponsesRequest(body: RequestBodyJson): ResponsesRequest {
  const request = parseModelRequest(body, responsesRequestSchema);
  if (request.background === true) {
    throw new GatewayError(
      'invalid_request',
      'Background responses are not supported: the gateway meters an answer while relaying it, and a background response finishes after the request. Send the request without "background".',
      { code: 'background_not_supported', param: 'background' },
    );
  }
  return request;
}

/**
 * The body the upstream receives: its own model id, gateway-only fields removed, every other field as sent,
 * except reasoning the gateway translated from Claude's thinking (a turn served by an Anthropic model, sent
 * back when the conversation moves to this one, by failover or a model switch): OpenAI refuses encrypted
 * content it cannot decrypt with a 400 (`invalid_encrypted_content`) on every later turn, and Claude's
 * thinking is no reasoning of its own. It stays behind, as OpenAI's own goes to no other provider.
 */
export function buildUpstreamResponsesBody(request: Record<string, unknown>, upstreamModel: string): string {
  const upstream: Record<string, unknown> = { ...request, model: upstreamModel };
  for (const field of gatewayOnlyFields) delete upstream[field];
  if (Array.isArray(request.input) && request.input.some(isCarriedAnthropicReasoning)) {
    upstream.input = request.input.filter((item) => !isCarriedAnthropicReasoning(item));
  }
  return JSON.stringify(upstream);
}

/** The parts of a Responses body that make up its input (the editor's bodies are Responses bodies too). */
export interface ResponsesPrompt {
  instructions?: string | null;
  input?: string | readonly unknown[] | null;
  tools?: unknown;
}

/**
 * The prompt as a tokenizer sees it, for estimates when the upstream reports no usage: the instructions,
 * every text of the input items, tool-call arguments and inputs, tool outputs, and the tool definitions,
 * which the model reads as part of its prompt (as the Messages estimate counts them).
 */
export function responsesPromptText(request: ResponsesPrompt): string {
  const parts: string[] = request.instructions ? [request.instructions] : [];
  if (typeof request.input === 'string') parts.push(request.input);
  for (const item of Array.isArray(request.input) ? request.input : []) collectTexts(item, parts);
  if (Array.isArray(request.tools)) for (const tool of request.tools as unknown[]) toolText(tool, parts);
  return parts.join('\n');
}

/** A tool definition's text: its name, description and parameter schema, and a custom tool's grammar. */
function toolText(tool: unknown, parts: string[]): void {
  if (typeof tool !== 'object' || tool === null) return;
  const { name, description, parameters, format } = tool as Record<string, unknown>;
  if (typeof name === 'string') parts.push(name);
  if (typeof description === 'string') parts.push(description);
  if (parameters !== undefined && parameters !== null) parts.push(JSON.stringify(parameters));
  const grammar = typeof format === 'object' && format !== null ? (format as Record<string, unknown>).definition : undefined;
  if (typeof grammar === 'string') parts.push(grammar);
}

const TEXT_FIELDS = ['text', 'arguments', 'input', 'output', 'content'] as const;

function collectTexts(value: unknown, parts: string[]): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) collectTexts(item, parts);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const field of TEXT_FIELDS) {
    const found = record[field];
    if (typeof found === 'string') parts.push(found);
    else collectTexts(found, parts);
  }
  collectTexts(record.summary, parts);
}
