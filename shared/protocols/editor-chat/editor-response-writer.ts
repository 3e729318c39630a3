import type { CanonicalOutput, CanonicalResponse } from '../../canonical/canonical-response.ts';
import { writeChatResponse } from '../openai-chat/chat-response-writer.ts';
import type { Presentation } from '../wire-protocol.ts';
import { THINK_CLOSE, THINK_OPEN } from './editor-think-block.ts';

/**
 * A complete answer as the editor reads a chat completion, the way its streams read: reasoning as text in
 * `<think>` tags before the answer, every tool call a `function` call (a custom tool's free text as the
 * raw arguments).
 */
export function writeEditorResponse(response: CanonicalResponse, presentation: Presentation): string {
  const reasoning = response.content.flatMap((part) => (part.type === 'reasoning' && part.text ? [part.text] : [])).join('\n\n');
  const content: CanonicalOutput[] = response.content.flatMap((part): CanonicalOutput[] => {
    if (part.type === 'reasoning') return [];
    if (part.type === 'tool-call') return [{ type: 'tool-call', id: part.id, name: part.name, arguments: part.arguments }];
    return [part];
  });
  const thought: CanonicalOutput[] = reasoning ? [{ type: 'text', text: THINK_OPEN + reasoning + THINK_CLOSE }] : [];
  return writeChatResponse({ ...response, content: [...thought, ...content] }, presentation);
}
