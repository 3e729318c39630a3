import type { AnthropicEffort } from './adaptive-effort.ts';

/** The Anthropic Messages request a translation produces (only what it can emit). */

/** A prompt-caching breakpoint: the prompt up to and including the block (or tool) is cached. */
export interface CacheControlled {
  cache_control?: { type: 'ephemeral' };
}

export interface AnthropicTextBlock extends CacheControlled {
  type: 'text';
  text: string;
}

export type AnthropicSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string };

export interface AnthropicImageBlock extends CacheControlled {
  type: 'image';
  source: AnthropicSource;
}

export interface AnthropicDocumentBlock extends CacheControlled {
  type: 'document';
  source: { type: 'base64' | 'text'; media_type: string; data: string };
  title?: string;
}

/** Earlier thinking, sent back with Anthropic's signature (required for it to be accepted). */
export interface AnthropicThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface AnthropicToolUseBlock extends CacheControlled {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface AnthropicToolResultBlock extends CacheControlled {
  type: 'tool_result';
  tool_use_id: string;
  content: string | Array<AnthropicTextBlock | AnthropicImageBlock>;
  is_error?: boolean;
}

export type AnthropicRequestBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicDocumentBlock
  | AnthropicThinkingBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock;

export interface AnthropicRequestMessage {
  role: 'user' | 'assistant';
  content: AnthropicRequestBlock[];
}

export interface AnthropicTool extends CacheControlled {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
}

export type AnthropicToolChoice =
  | { type: 'auto' | 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export interface AnthropicMessagesRequestBody {
  model: string;
  max_tokens: number;
  messages: AnthropicRequestMessage[];
  system?: AnthropicTextBlock[];
  temperature?: number;
  top_p?: number;
  stop_sequences?: string[];
  stream?: boolean;
  tools?: AnthropicTool[];
  tool_choice?: AnthropicToolChoice;
  thinking?: AnthropicThinking;
  /** The effort of adaptive thinking, and the JSON Schema a structured answer follows (messages-output-format.ts). */
  output_config?: { effort?: AnthropicEffort; format?: AnthropicOutputFormat };
  metadata?: { user_id: string };
}

/** Structured outputs: the answer is JSON that follows the schema. */
export interface AnthropicOutputFormat {
  type: 'json_schema';
  schema: Record<string, unknown>;
}

/**
 * Extended thinking with a budget (Claude 4.5 and older), or adaptive thinking (Claude 4.6 and later), its
 * depth set by `output_config.effort`. `display: summarized` keeps the thinking text, which Claude 4.7 and
 * later omit by default.
 */
export type AnthropicThinking = { type: 'enabled'; budget_tokens: number } | { type: 'adaptive'; display: 'summarized' };
