import { relayOpenAiUpstreamError, writeOpenAiErrorBody } from '../openai-chat/openai-errors.ts';
import { chatAnswerId } from '../openai-chat/chat-response-writer.ts';
import { readResponsesRequest } from '../openai-responses/responses-request-reader.ts';
import type { ClientDialect } from '../wire-protocol.ts';
import { editorStreamErrorFrame, renderEditorError } from './editor-errors.ts';
import { editorProfileOf } from './editor-request.ts';
import { writeEditorResponse } from './editor-response-writer.ts';
import { writeEditorResponsesBody } from './editor-responses-rewrite.ts';
import { createEditorStreamWriter } from './editor-stream-writer.ts';

/**
 * The editor client's chat completions (Cursor with its OpenAI base URL overridden): it sends Responses
 * or chat bodies to `/chat/completions` and parses only `chat.completion.chunk` streams. Its bodies, made
 * Responses bodies by the editor profile (parseEditorRequest), go as they are to providers that serve the
 * Responses API, and through the canonical model (read as Responses requests) to every other; answers
 * come back in the chunks the editor parses. Errors are OpenAI's error bodies, with setup hints.
 */
export const editorChatProtocol: ClientDialect = {
  id: 'editor-chat',
  rewrites: [{ upstream: 'openai-responses', body: writeEditorResponsesBody }],

  readRequest: readResponsesRequest,
  clientAskedForStreamUsage: (body) => editorProfileOf(body).includeUsage,
  writeResponse: writeEditorResponse,
  answerId: chatAnswerId,
  createStreamWriter: createEditorStreamWriter,
  writeErrorBody: writeOpenAiErrorBody,
  relayUpstreamError: relayOpenAiUpstreamError,
  relaysFailedAttempt: false,
  renderError: renderEditorError,
  streamErrorFrame: editorStreamErrorFrame,
  streamContentType: 'text/event-stream',
};
