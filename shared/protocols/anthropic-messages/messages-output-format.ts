import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema';
import type { CanonicalRequest } from '../../canonical/canonical-request.ts';
import type { AnthropicOutputFormat } from './anthropic-request-types.ts';
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
