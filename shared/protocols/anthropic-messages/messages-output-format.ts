import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema';
import type { CanonicalRequest } from '../../canonical/canonical-request.ts';
import type { DroppedFields } from '../../canonical/dropped-fields.ts';
import type { AnthropicOutputFormat } from './anthropic-request-types.ts';
import type { AnthropicRequest } from './anthropic-wire-types.ts';
import { takesStructuredOutput } from './claude-thinking-mode.ts';

/**
 * A client's JSON Schema answer format (chat's `response_format`, the Responses API's `text.format`) as
 * Claude's structured outputs, for the models that take them (claude-thinking-mode.ts): OpenAI's SDK
 * helpers (`.parse()`, `zodResponseFormat`) then get the JSON they parse. Claude takes a narrower schema
 * than OpenAI does (every object closed, no numeric or length bounds), so the schema is rewritten as
 * Anthropic's own SDK rewrites it: what Claude cannot enforce moves into the description. JSON mode
 * (`json_object`, no schema), a model without structured outputs, and a schema even that rewrite cannot
 * express (a property without a type) are left out and named as dropped, `response_format`.
 */
export function writeOutputFormat(request: CanonicalRequest, upstreamModel: string): AnthropicOutputFormat | undefined {
  const format = request.responseFormat;
  if (format === undefined) return undefined;
  const schema = format.type === 'json_schema' && takesStructuredOutput(upstreamModel) ? claudeSchema(format.schema) : undefined;
  if (schema === undefined) request.dropped.add('response_format');
  return schema && { type: 'json_schema', schema };
}

function claudeSchema(schema: Record<string, unknown>): Record<string, unknown> | undefined {
  try {
    return transformJSONSchema(schema);
  } catch {
    return undefined;
  }
}

/**
 * An Anthropic client's structured outputs (`output_config.format`, or `output_format`, its beta name) as
 * the answer's JSON Schema format, for OpenAI's protocols (`response_format` / `text.format`, named
 * `response`). It goes without `strict`: OpenAI's strict mode asks every property to be required, and
 * Claude's schemas may leave some optional. A format of another shape is dropped and named.
 */
export function readOutputFormat(request: AnthropicRequest, dropped: DroppedFields): CanonicalRequest['responseFormat'] {
  const format = request.output_config?.format ?? request.output_format;
  if (format === undefined || format === null) return undefined;
  const { type, schema } = format as { type?: unknown; schema?: unknown };
  if (type === 'json_schema' && typeof schema === 'object' && schema !== null && !Array.isArray(schema)) {
    return { type: 'json_schema', name: 'response', schema: schema as Record<string, unknown> };
  }
  dropped.add(request.output_config?.format !== undefined ? 'output_config.format' : 'output_format');
  return undefined;
}
