import * as z from 'zod';
import { billedUnitsSchema } from './billed-units.ts';

/** Attribution a client may send (spec 6); safe-to-log metadata only, each value bounded. */
export const attributionSchema = z.object({
  environment: z.string().max(256).optional(),
  referer: z.string().max(1024).optional(),
  title: z.string().max(256).optional(),
  sessionId: z.string().max(256).optional(),
  agentId: z.string().max(256).optional(),
  userAgent: z.string().max(512).optional(),
  /** The app's own user the request is made for, as the body names it (OpenAI's `user`, Anthropic's `metadata.user_id`). */
  endUser: z.string().max(256).optional(),
});
export type Attribution = z.infer<typeof attributionSchema>;

/**
 * One metered request: the message the request path hands to the usage sink and the writer stores.
 * `recordId` is unique per record (the writer's exactly-once key); `requestId` is what the client
 * looks the generation up by, and may repeat when a client reuses its X-Request-ID.
 * Never holds prompts, completions or secrets.
 */
export const usageRecordSchema = z.object({
  version: z.literal(1),
  recordId: z.string().regex(/^rec-[0-9A-Za-z]{16,64}$/),
  requestId: z.string().min(1).max(128),
  projectId: z.string().min(1),
  keyId: z.string().min(1),
  endpoint: z.string(),
  /** Provider-prefixed slug of the model that served (or was last tried); `mcp/<server>/<tool>` for a bridged tool call. */
  model: z.string(),
  provider: z.string(),
  upstreamId: z.string().optional(),
  /** The id the client found in the answer's body (the upstream's, or a translated answer's `msg_…`): the generation is looked up by it too. */
  answerId: z.string().optional(),
  streamed: z.boolean(),
  status: z.enum(['completed', 'failed', 'cancelled']),
  httpStatus: z.number().int(),
  errorCode: z.string().optional(),
  /** The upstream's own finish word (`end_turn`, `tool_calls`, `completed`): OpenRouter's `native_finish_reason`. */
  finishReason: z.string().optional(),
  /** The same in the gateway's words, whatever the protocol (a Responses answer `completed` with calls is `tool-calls`); absent in older records. */
  finish: z.enum(['stop', 'length', 'tool-calls', 'content-filter', 'error', 'other']).optional(),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  cachedTokens: z.number().int().nonnegative(),
  /** Prompt tokens written to the provider's cache (Anthropic's cache_creation_input_tokens). */
  cacheWriteTokens: z.number().int().nonnegative().default(0),
  /** Of cacheWriteTokens, those written to a one-hour cache (priced apart); 0 in records from before the split. */
  cacheWrite1hTokens: z.number().int().nonnegative().default(0),
  reasoningTokens: z.number().int().nonnegative(),
  /** True when the upstream reported no usage and the gateway counted with a tokenizer. */
  estimated: z.boolean(),
  /** Cost in nano-USD (10^-9 USD): integer, exact. */
  costNanos: z.number().int().nonnegative(),
  /** The project was prepaid at admission: settling takes the cost from its balance. */
  prepaid: z.boolean().default(false),
  /** What admission reserved from the balance for this request's worst case; settling gives back the rest. */
  reservedNanos: z.number().int().nonnegative().default(0),
  /** The fallbacks tried: attempts after the first, whether the request was served or every target failed. */
  fallbackAttempts: z.number().int().nonnegative(),
  latencyMs: z.number().int().nonnegative(),
  /** From the request's arrival to the serving upstream's response head: the time to first byte, failover included. */
  upstreamLatencyMs: z.number().int().nonnegative().optional(),
  /** What the request was billed beyond tokens: the request, images, seconds of audio or video, characters, search units. */
  units: billedUnitsSchema.optional(),
  /** Bytes of what went upstream and what came back (the tool bridge's calls: JSON-RPC params and result). */
  requestBytes: z.number().int().nonnegative().optional(),
  responseBytes: z.number().int().nonnegative().optional(),
  /** Prompt tokens the editor profile's prompt compression took out before the request went upstream. */
  compressionSavedTokens: z.number().int().nonnegative().optional(),
  createdAt: z.iso.datetime(),
  attribution: attributionSchema,
});
export type UsageRecord = z.infer<typeof usageRecordSchema>;
