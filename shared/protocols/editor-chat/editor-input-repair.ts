import type { InputItem } from './editor-chat-messages.ts';
import type { TextCompaction } from './editor-prompt-compression.ts';
import { withoutThinkBlock } from './editor-think-block.ts';

export interface InputRepairContext {
  /** The names of the request's custom tools (ApplyPatch). */
  customTools: ReadonlySet<string>;
  /** The request stores its response upstream (`store: true`): reasoning items may be referenced by id. */
  store: boolean;
  /** Where the think blocks taken out of assistant turns are noted. */
  compaction: TextCompaction[];
}

const stringOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * Input items as the Responses API takes them from the editor (failure modes of docs/decisions/editor-route.md):
 * - the history of a custom tool (ApplyPatch), replayed as a function_call and its function_call_output,
 *   becomes custom_tool_call (its arguments are the raw input) and custom_tool_call_output, call ids kept;
 * - tool outputs given as `output_text` parts become `input_text` (the only text part outputs take);
 * - an assistant message's `input_text` parts become `output_text`, the think block the bridge wrote is
 *   taken out, and a message left with no content is dropped (`content: []` and null are refused);
 * - without `store`, a reasoning item without its encrypted content is dropped: its id names nothing;
 * - a tool output whose call is not in the input (history the editor trimmed) is dropped: the API refuses it.
 */
export function repairInput(items: readonly InputItem[], context: InputRepairContext): InputItem[] {
  const called = new Set<string>();
  const customCalls = new Set<string>();
  const repaired: InputItem[] = [];
  for (const item of items) {
    const type = stringOf(item.type) ?? 'message';
    const callId = stringOf(item.call_id) ?? '';
    switch (type) {
      case 'function_call': {
        called.add(callId);
        const name = stringOf(item.name) ?? '';
        if (!context.customTools.has(name)) {
          repaired.push(item);
          break;
        }
        customCalls.add(callId);
        repaired.push({ type: 'custom_tool_call', call_id: callId, name, input: stringOf(item.arguments) ?? '' });
        break;
      }
      case 'custom_tool_call':
        called.add(callId);
        customCalls.add(callId);
        repaired.push(item);
        break;
      case 'function_call_output':
      case 'custom_tool_call_output': {
        if (!called.has(callId)) break;
        const outputType = customCalls.has(callId) ? 'custom_tool_call_output' : 'function_call_output';
        const output = toolOutput(item.output);
        repaired.push(outputType === type ? { ...item, output } : { type: outputType, call_id: callId, output });
        break;
      }
      case 'reasoning':
        if (context.store || stringOf(item.encrypted_content)) repaired.push(item);
        break;
      case 'message': {
        const message = repairMessage(item, context.compaction);
        if (message) repaired.push(message);
        break;
      }
      default:
        repaired.push(item);
    }
  }
  return repaired;
}

function toolOutput(output: unknown): unknown {
  if (!Array.isArray(output)) return output ?? '';
  return output.map((part: unknown) => {
    const record = part as InputItem;
    return record && record.type === 'output_text' ? { ...record, type: 'input_text' } : part;
  });
}

function repairMessage(item: InputItem, compaction: TextCompaction[]): InputItem | undefined {
  const assistant = item.role === 'assistant';
  const content = item.content;
  if (typeof content === 'string') {
    const text = assistant ? stripThink(content, compaction) : content;
    return text ? { ...item, content: text } : undefined;
  }
  if (!Array.isArray(content)) return undefined;
  const parts = assistant ? assistantParts(content as InputItem[], compaction) : (content as InputItem[]);
  return parts.length > 0 ? { ...item, content: parts } : undefined;
}

function assistantParts(parts: readonly InputItem[], compaction: TextCompaction[]): InputItem[] {
  return parts.flatMap((part, position) => {
    const isText = part.type === 'output_text' || part.type === 'input_text' || part.type === 'text';
    if (!isText) return [part];
    const text = position === 0 ? stripThink(stringOf(part.text) ?? '', compaction) : (stringOf(part.text) ?? '');
    return text ? [{ ...part, type: 'output_text', text }] : [];
  });
}

function stripThink(text: string, compaction: TextCompaction[]): string {
  const { text: rest, removed } = withoutThinkBlock(text);
  if (removed) compaction.push({ before: removed, after: '' });
  return rest;
}
