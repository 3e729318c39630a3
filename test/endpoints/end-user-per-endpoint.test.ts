import { describe, expect, it } from 'vitest';
import { speechEndpoint, transcriptionsEndpoint, translationsEndpoint } from '../../shared/endpoints/audio.ts';
import { chatCompletionsEndpoint } from '../../shared/endpoints/chat-completions.ts';
import { completionsEndpoint } from '../../shared/endpoints/completions.ts';
import { editorChatCompletionsEndpoint } from '../../shared/endpoints/editor-chat-completions.ts';
import { embeddingsEndpoint } from '../../shared/endpoints/embeddings.ts';
import { imageEditsEndpoint, imageGenerationsEndpoint } from '../../shared/endpoints/images.ts';
import { messagesEndpoint } from '../../shared/endpoints/messages.ts';
import { moderationsEndpoint } from '../../shared/endpoints/moderations.ts';
import { rerankEndpoint } from '../../shared/endpoints/rerank.ts';
import { responsesEndpoint } from '../../shared/endpoints/responses.ts';
import { videosEndpoint } from '../../shared/endpoints/videos.ts';
import type { FormRequest } from '../../shared/protocols/form-request.ts';

/** What an endpoint reads of a parsed body as its end user (each endpoint's body type differs; the readers take only their field). */
const endUserOf = (endpoint: { endUser?(body: never): string | undefined }, body: Record<string, unknown>) => endpoint.endUser?.(body as never);

describe('the end user of each endpoint’s body', () => {
  it.each([
    ['chat completions', chatCompletionsEndpoint],
    ['completions', completionsEndpoint],
    ['responses', responsesEndpoint],
    ['the editor route', editorChatCompletionsEndpoint],
    ['embeddings', embeddingsEndpoint],
    ['image generations', imageGenerationsEndpoint],
  ] as const)('is `user` on %s', (_name, endpoint) => {
    expect(endUserOf(endpoint, { model: 'm', user: 'user-123' })).toBe('user-123');
  });

  it('is `metadata.user_id` on messages', () => {
    expect(messagesEndpoint.endUser?.({ model: 'm', messages: [], metadata: { user_id: 'user-456' } })).toBe('user-456');
  });

  it('is the form field `user` on image edits (an upload)', () => {
    const upload: FormRequest = { model: 'm', form: { parts: [{ kind: 'field', name: 'model', value: 'm' }, { kind: 'field', name: 'user', value: 'user-789' }] } };
    expect(imageEditsEndpoint.endUser?.(upload)).toBe('user-789');
  });

  it.each([
    ['speech', speechEndpoint],
    ['transcriptions', transcriptionsEndpoint],
    ['translations', translationsEndpoint],
    ['moderations', moderationsEndpoint],
    ['videos', videosEndpoint],
    ['rerank', rerankEndpoint],
  ] as const)('is not read on %s, whose body has no such field', (_name, endpoint) => {
    expect(endpoint.endUser).toBeUndefined();
  });
});
