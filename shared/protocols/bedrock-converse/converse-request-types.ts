/** The parts of a Converse request the gateway writes (AWS's Converse API, as its JSON body carries them). */
export interface ConverseRequestBody {
  messages: ConverseMessage[];
  system?: Array<{ text: string } | ConverseCachePoint>;
  inferenceConfig?: { maxTokens?: number; temperature?: number; topP?: number; stopSequences?: string[] };
  toolConfig?: { tools: Array<ConverseTool | ConverseCachePoint>; toolChoice?: ConverseToolChoice };
}

/** A prompt-caching checkpoint: the prompt before it, in its list and the lists before (tools, system, messages), is cached. */
export type ConverseCachePoint = { cachePoint: { type: 'default' } };

export interface ConverseMessage {
  role: 'user' | 'assistant';
  content: ConverseRequestBlock[];
}

/** Binary content travels base64-encoded in the JSON body. */
export type ConverseImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';
export type ConverseImageBlock = { image: { format: ConverseImageFormat; source: { bytes: string } } };
export type ConverseDocumentBlock = { document: { format: 'pdf' | 'txt'; name: string; source: { bytes: string } } };

export type ConverseRequestBlock =
  | { text: string }
  | ConverseImageBlock
  | ConverseDocumentBlock
  | { toolUse: { toolUseId: string; name: string; input: Record<string, unknown> } }
  | { toolResult: { toolUseId: string; content: Array<{ text: string } | ConverseImageBlock>; status?: 'error' } }
  | ConverseCachePoint;

export interface ConverseTool {
  toolSpec: { name: string; description?: string; inputSchema: { json: Record<string, unknown> } };
}

export type ConverseToolChoice = { auto: Record<string, never> } | { any: Record<string, never> } | { tool: { name: string } };
