/**
 * The Bedrock runtime's path for an operation on a model: the model id (a foundation model, an inference
 * profile, or an ARN) is one path segment, percent-encoded as the AWS SDK encodes it (`:` → `%3A`,
 * an ARN's `/` → `%2F`).
 */
export function bedrockModelPath(modelId: string, operation: 'invoke' | 'invoke-with-response-stream' | 'converse' | 'converse-stream'): string {
  return `/model/${encodeURIComponent(modelId)}/${operation}`;
}

/** What a streamed Bedrock answer is framed as (AWS's binary event stream). */
export const EVENT_STREAM_CONTENT_TYPE = 'application/vnd.amazon.eventstream';

/** The headers of every Bedrock runtime call: a JSON body, and JSON or the AWS event stream back. */
export function bedrockRuntimeHeaders(_client: unknown, streaming: boolean): Record<string, string> {
  return { 'content-type': 'application/json', accept: streaming ? EVENT_STREAM_CONTENT_TYPE : 'application/json' };
}
