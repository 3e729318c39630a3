import { createSseDecoder } from '../../transport/stream-decoder.ts';
import { readOpenAiErrorWords, relayOpenAiUpstreamError, renderOpenAiError, writeOpenAiErrorBody } from '../openai-chat/openai-errors.ts';
import type { WireProtocol } from '../wire-protocol.ts';
import { responsesFailureFrames, responsesFailureOfGatewayError } from './responses-errors.ts';
import { presentResponsesObject } from './responses-native-response.ts';
import { createResponsesPassThrough } from './responses-pass-through.ts';
import { buildUpstreamResponsesBody } from './responses-request.ts';
import { readResponsesRequest } from './responses-request-reader.ts';
import { writeResponsesRequest } from './responses-request-writer.ts';
import { isResponseObject, readResponsesResponse } from './responses-response-reader.ts';
import { responsesAnswerId, writeResponsesResponse } from './responses-response-writer.ts';
import { createResponsesStreamReader } from './responses-stream-reader.ts';
import { createResponsesStreamWriter } from './responses-stream-writer.ts';

/**
 * OpenAI's Responses protocol (`POST /responses`): Codex's protocol, and the newest OpenAI SDK features'.
 * Errors are OpenAI's error bodies, as on chat completions; in a stream, OpenAI's `error` event followed by
 * response.failed.
 */
export const openAiResponsesProtocol: WireProtocol = {
  id: 'openai-responses',

  upstreamPath: () => '/responses',
  upstreamHeaders: (_client, streaming) => ({ 'content-type': 'application/json', accept: streaming ? 'text/event-stream' : 'application/json' }),
  native: { requestBody: buildUpstreamResponsesBody },
  writeRequest: writeResponsesRequest,
  isCompleteAnswer: isResponseObject,
  readResponse: readResponsesResponse,
  createStreamDecoder: createSseDecoder,
  upstreamStreamContentType: 'text/event-stream',
  createStreamReader: createResponsesStreamReader,
  readErrorBody: (answer) => readOpenAiErrorWords(answer.body),

  readRequest: readResponsesRequest,
  // Every Responses stream ends with its usage in the terminal event.
  clientAskedForStreamUsage: () => true,
  writeResponse: writeResponsesResponse,
  answerId: responsesAnswerId,
  presentNativeResponse: presentResponsesObject,
  createStreamWriter: createResponsesStreamWriter,
  createPassThrough: createResponsesPassThrough,
  writeErrorBody: writeOpenAiErrorBody,
  relayUpstreamError: relayOpenAiUpstreamError,
  relaysFailedAttempt: false,
  renderError: renderOpenAiError,
  // Without a stream's state (its clients' writers and pass-throughs have their own `fail`): an error event numbered 0.
  streamErrorFrame: (error) => responsesFailureFrames(responsesFailureOfGatewayError(error), 0, { id: '', object: 'response', output: [] }),
  streamContentType: 'text/event-stream',
};
