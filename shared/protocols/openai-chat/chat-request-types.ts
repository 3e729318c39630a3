/** The OpenAI chat request a translation produces (only what it can emit). */
export type ChatContentPartOut =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'file'; file: { file_data: string; filename?: string } };

export type ChatToolCallOut =
  | { id: string; type: 'function'; function: { name: string; arguments: string } }
  | { id: string; type: 'custom'; custom: { name: string; input: string } };

/** A canonical tool call as a chat tool call: a function with JSON arguments, or a custom tool with its text. */
export function chatToolCallOf(call: { id: string; name: string; arguments: string; custom?: boolean | undefined }): ChatToolCallOut {
  return call.custom
    ? { id: call.id, type: 'custom', custom: { name: call.name, input: call.arguments } }
    : { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } };
}

export type ChatMessageOut =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ChatContentPartOut[] }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCallOut[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatFunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export type ChatToolChoiceOut = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

export interface ChatCompletionRequestBody {
  model: string;
  messages: ChatMessageOut[];
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  stop?: string[];
  stream?: boolean;
  stream_options?: { include_usage: true };
  tools?: ChatFunctionTool[];
  tool_choice?: ChatToolChoiceOut;
  parallel_tool_calls?: boolean;
  user?: string;
}
