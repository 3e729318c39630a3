import { describe, expect, it } from 'vitest';
import { editorBaseUrlHint } from '../../../shared/protocols/editor-chat/editor-base-url-hint.ts';

describe('editorBaseUrlHint', () => {
  it('names the base URL to set, and the one the request came from, when the path shows another base URL under /v1/editor', () => {
    expect(editorBaseUrlHint('/v1/editor/openai/chat/completions')).toMatch(/Override OpenAI Base URL.* \/v1\/editor \(.* ending in \/v1\/editor\/openai\)/);
    expect(editorBaseUrlHint('/v1/editor/v1/v1/models')).toMatch(/ending in \/v1\/editor\/v1\/v1\)/);
    expect(editorBaseUrlHint('/v1/editor/chat/completions/chat/completions')).toMatch(/ending in \/v1\/editor\/chat\/completions\)/);
    expect(editorBaseUrlHint('/v1/editor/x/models/openai/gpt-5.4')).toMatch(/ending in \/v1\/editor\/x\)/);
  });

  it('never suggests the base URL the request may well come from: a path that does not show its base says what the route serves', () => {
    for (const path of ['/v1/editor/completions', '/v1/editor/v1/embeddings', '/v1/editor/files', '/v1/editor/models/gpt-9', '/v1/editor/v1/chat/completions']) {
      expect(editorBaseUrlHint(path), path).not.toMatch(/Base URL/i);
      expect(editorBaseUrlHint(path), path).toMatch(/serves only POST \/v1\/editor\/chat\/completions and GET \/v1\/editor\/models/);
    }
  });
});
