import { describe, expect, it } from 'vitest';
import { editorChatCompletionsEndpoint } from '../../shared/endpoints/editor-chat-completions.ts';
import { parseEditorRequest } from '../../shared/protocols/editor-chat/editor-request.ts';
import { APPLY_PATCH_GRAMMAR, cursorResponsesBody } from '../protocols/editor-chat/cursor-bodies.ts';

describe('the editor endpoint', () => {
  it('estimates the prompt with its tool definitions, as the model reads them', () => {
    const text = editorChatCompletionsEndpoint.promptText(parseEditorRequest(JSON.stringify(cursorResponsesBody())));
    expect(text).toContain('fix the bug');
    expect(text).toContain('ReadFile\nRead a file.\n{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]');
    expect(text).toContain(`ApplyPatch\nUse this tool to edit files.\n${APPLY_PATCH_GRAMMAR}`);
  });

  it('names the end user the editor’s body carries in `user`, and keeps the field for the upstream', () => {
    const request = parseEditorRequest(JSON.stringify({ ...cursorResponsesBody(), user: 'user-123' }));
    expect(editorChatCompletionsEndpoint.endUser?.(request)).toBe('user-123');
    expect(request.user).toBe('user-123');
  });
});
