import { isAnthropicMessage, readMessagesResponse } from '../anthropic-messages/messages-response-reader.ts';
import { writeMessagesRequest } from '../anthropic-messages/messages-request-writer.ts';
import { readBedrockErrorWords, interpretBedrockErrorAnswer } from '../bedrock-runtime/bedrock-errors.ts';
import { bedrockModelPath, bedrockRuntimeHeaders, EVENT_STREAM_CONTENT_TYPE } from '../bedrock-runtime/bedrock-model-path.ts';
import type { UpstreamProtocol } from '../wire-protocol.ts';
import { nativeBedrockMessagesBody, toBedrockMessagesBody } from './bedrock-messages-body.ts';
import { createBedrockMessagesDecoder } from './bedrock-messages-stream.ts';
import { createBedrockMessagesStreamReader } from './bedrock-messages-stream-reader.ts';

/**
 * Anthropic's Messages protocol as Bedrock serves Claude: `InvokeModel` (`POST /model/{id}/invoke`) and
 * `InvokeModelWithResponseStream` (`…/invoke-with-response-stream`), Anthropic's body with
 * `anthropic_version: bedrock-2023-05-31`, Anthropic's message back, and Anthropic's stream events inside
 * AWS's event-stream framing. Messages clients reach it natively (Claude Code onto Bedrock); every other
 * client through the canonical model with Anthropic's writer and readers. Errors are Bedrock's.
 */
export const bedrockAnthropicMessagesProtocol: UpstreamProtocol = {
  id: 'bedrock-anthropic-messages',

  upstreamPath: ({ streaming, upstreamModel }) => bedrockModelPath(upstreamModel, streaming ? 'invoke-with-response-stream' : 'invoke'),
  upstreamHeaders: bedrockRuntimeHeaders,
  native: { requestBody: nativeBedrockMessagesBody },
  writeRequest: (request, upstreamModel, features) => toBedrockMessagesBody(writeMessagesRequest(request, upstreamModel, features), []),
  isCompleteAnswer: isAnthropicMessage,
  readResponse: readMessagesResponse,
  createStreamDecoder: createBedrockMessagesDecoder,
  upstreamStreamContentType: EVENT_STREAM_CONTENT_TYPE,
  createStreamReader: createBedrockMessagesStreamReader,
  readErrorBody: readBedrockErrorWords,
  interpretErrorAnswer: interpretBedrockErrorAnswer,
};
