import { interpretBedrockErrorAnswer, readBedrockErrorWords } from '../bedrock-runtime/bedrock-errors.ts';
import { bedrockModelPath, bedrockRuntimeHeaders, EVENT_STREAM_CONTENT_TYPE } from '../bedrock-runtime/bedrock-model-path.ts';
import type { UpstreamProtocol } from '../wire-protocol.ts';
import { writeConverseRequest } from './converse-request-writer.ts';
import { isConverseAnswer, readConverseResponse } from './converse-response-reader.ts';
import { createConverseStreamDecoder } from './converse-stream-decoder.ts';
import { createConverseStreamReader } from './converse-stream-reader.ts';

/**
 * Bedrock's Converse API (`POST /model/{id}/converse`, `…/converse-stream`): one request and answer shape
 * for every model Bedrock serves (Nova, Llama, Mistral, …), its stream in AWS's event-stream framing. No
 * client speaks it to the gateway: every client protocol reaches it through the canonical model.
 */
export const bedrockConverseProtocol: UpstreamProtocol = {
  id: 'bedrock-converse',

  upstreamPath: ({ streaming, upstreamModel }) => bedrockModelPath(upstreamModel, streaming ? 'converse-stream' : 'converse'),
  upstreamHeaders: bedrockRuntimeHeaders,
  writeRequest: writeConverseRequest,
  isCompleteAnswer: isConverseAnswer,
  readResponse: readConverseResponse,
  createStreamDecoder: createConverseStreamDecoder,
  upstreamStreamContentType: EVENT_STREAM_CONTENT_TYPE,
  createStreamReader: createConverseStreamReader,
  readErrorBody: readBedrockErrorWords,
  interpretErrorAnswer: interpretBedrockErrorAnswer,
};
