import { asJsonObject } from '../core/json-object.ts';
import { jsonBody, type GenerationEndpoint, type RecordAnnotations } from '../pipeline/generation-endpoint.ts';
import { openAiEndUser } from '../protocols/end-user-fields.ts';
import { thinkingBudgetBound } from '../protocols/anthropic-messages/reasoning-effort-budget.ts';
import { editorChatProtocol } from '../protocols/editor-chat/editor-chat-protocol.ts';
import { editorProfileOf, parseEditorRequest, type EditorRequest } from '../protocols/editor-chat/editor-request.ts';
import { responsesPromptText } from '../protocols/openai-responses/responses-request.ts';
import { countTokens } from '../tokenizer/estimate-tokens.ts';
import { routeToStoredResponse } from './route-to-stored-response.ts';

/**
 * The editor client's chat completions (`/v1/editor/chat/completions`, and `/v1/chat/completions` when the
 * editor is detected): its bodies made Responses bodies and compressed by the editor profile, native to
 * providers that serve the Responses API, translated for the others, answered in chat chunks.
 */
export const editorChatCompletionsEndpoint: GenerationEndpoint<EditorRequest> = {
  name: 'editor.chat_completions',
  clientProtocol: editorChatProtocol,
  modelKinds: ['chat'],
  parse: jsonBody(parseEditorRequest),
  // Both of the editor's shapes (chat and Responses) are OpenAI bodies: `user` passes on as sent.
  endUser: openAiEndUser,
  promptText: (request) => responsesPromptText({ input: request.input, instructions: request.instructions, tools: request.tools }),
  maxOutputTokens: (request) => request.max_output_tokens,
  withOutputCap: (body, cap) => ({ ...body, max_output_tokens: cap }),
  thinkingBudget: (request) => thinkingBudgetBound(undefined, asJsonObject(request.reasoning)),
  annotateRecord: annotateEditorRecord,
  refineRouting: routeToStoredResponse,
};

/**
 * The prompt tokens compression saved (counted with the tokenizer, after the answer) and the editor's
 * conversation as the session, so usage can be summed per conversation.
 */
async function annotateEditorRecord(request: EditorRequest): Promise<RecordAnnotations> {
  const { compaction, conversationId } = editorProfileOf(request);
  const [before, after] = await Promise.all([
    countTokens(compaction.map((change) => change.before).join('\n')),
    countTokens(compaction.map((change) => change.after).join('\n')),
  ]);
  return { compressionSavedTokens: Math.max(0, before - after), ...(conversationId ? { attribution: { sessionId: conversationId.slice(0, 256) } } : {}) };
}
