import type { CanonicalErrorType } from '../canonical/canonical-events.ts';
import type { MeteredObservation } from '../canonical/canonical-meter.ts';
import { addUnits, type BilledUnits } from '../core/billed-units.ts';
import { asJsonObject } from '../core/json-object.ts';
import type { TokenUsage } from '../core/token-usage.ts';
import { countTokens } from '../tokenizer/estimate-tokens.ts';
import type { UsageEstimate } from './admit-usage.ts';
import type { Generations } from './generation-endpoint.ts';

/**
 * Tokens an image can be billed at, at most: OpenAI's gpt-4o-mini counts 2,833 + 5,667 per 512-pixel tile,
 * up to 8 tiles for a 2048×768 image (48,169); Claude counts at most about 1,600.
 */
export const IMAGE_TOKENS_BOUND = 50_000;
/** Tokens a provider adds around a request with tools (Anthropic's tool-use system prompt is a few hundred). */
export const TOOLS_OVERHEAD_TOKENS_BOUND = 1_000;
/** Tokens a provider adds to any prompt it answers (chat templates, reply priming). */
export const REQUEST_OVERHEAD_TOKENS_BOUND = 100;

/**
 * What admission needs of a request without running a tokenizer on the hot path: a quick estimate of the
 * prompt for tokens per minute (about four characters a token), and a true upper bound for the balance.
 * The bound rests on this: a byte-level BPE token covers at least one byte of UTF-8, and every token of
 * the prompt comes from the body's bytes (each message's role and framing, which providers bill as a few
 * tokens, spans more bytes of JSON than that), except what the provider adds itself: images given by
 * reference, the tool-use preamble and a chat template (once per prompt of a request that lists several),
 * each bounded above. The prompts of a list are billed once each, however many choices answer them.
 */
export function estimateUsageBound(
  promptText: string,
  outputCap: number | undefined,
  shape: { bodyBytes: number; images: number; tools: boolean; units?: BilledUnits; generations?: Generations; promptTokenIds?: number; thinkingBudget?: number; heldPrompt?: boolean },
): UsageEstimate {
  const { prompts, choices } = shape.generations ?? { prompts: 1, choices: 1 };
  return {
    ...(shape.heldPrompt ? { heldPrompt: true } : {}),
    promptTokens: Math.ceil(promptText.length / 4) + (shape.promptTokenIds ?? 0),
    promptTokensBound: shape.bodyBytes + shape.images * IMAGE_TOKENS_BOUND + (shape.tools ? TOOLS_OVERHEAD_TOKENS_BOUND : 0) + prompts * REQUEST_OVERHEAD_TOKENS_BOUND,
    outputCap,
    choices,
    ...(shape.thinkingBudget !== undefined ? { thinkingBudget: shape.thinkingBudget } : {}),
    // The request itself is billed once at most, whatever the endpoint.
    unitsBound: addUnits(shape.units, { requests: 1 }),
  };
}

/**
 * Whether a request names prompt the provider holds or fetches, which its bytes do not bound: a stored
 * response or conversation to continue (`previous_response_id`, `conversation`), a stored prompt template
 * (`prompt: {id}`), a file by id (chat's and the Responses API's `file_id`, Anthropic's Files API) or by URL
 * (`input_file`'s `file_url`, an Anthropic document's `url` source), or a tool the provider runs that reads
 * what it finds into the prompt (a page fetch, a file search, an MCP server's tools). A provider bills it
 * all as prompt, up to the model's context window. (Web search is bounded apart: its searches are counted.)
 */
export function namesPromptHeldByProvider(body: Readonly<Record<string, unknown>>): boolean {
  return promptParts(body).heldPrompt;
}

/** Beside the body's bytes, what bounds its prompt: its image parts, and whether it names prompt the provider holds. One walk of its content for both. */
export function promptParts(body: Readonly<Record<string, unknown>>): { images: number; heldPrompt: boolean } {
  let heldPrompt =
    typeof body.previous_response_id === 'string' ||
    (body.conversation !== undefined && body.conversation !== null) ||
    (typeof body.prompt === 'object' && body.prompt !== null && !Array.isArray(body.prompt)) ||
    (Array.isArray(body.mcp_servers) && body.mcp_servers.length > 0) ||
    (Array.isArray(body.tools) && body.tools.some((tool: unknown) => CONTENT_FETCHING_TOOL.test(String(asJsonObject(tool)?.type ?? ''))));
  let images = 0;
  for (const part of contentParts(body)) {
    if (IMAGE_PART_TYPES.has(String(part.type))) images += 1;
    if (!heldPrompt && namesHeldContent(part)) heldPrompt = true;
  }
  return { images, heldPrompt };
}

/** Tools the provider runs that read what they find into the prompt: Anthropic's page fetch, OpenAI's file search and MCP tools. */
const CONTENT_FETCHING_TOOL = /^(?:web_fetch_\d+|file_search|mcp)$/;

/**
 * A content part that names what the provider holds or fetches: chat's `file`, the Responses API's `input_*`
 * and `item_reference` (an item it stored), Anthropic's `source` and `container_upload`.
 */
function namesHeldContent(part: Record<string, unknown>): boolean {
  const file = asJsonObject(part.file);
  const source = asJsonObject(part.source);
  if (part.type === 'item_reference' || (part.type === 'container_upload' && typeof part.file_id === 'string')) return true;
  if (part.type === 'file' && typeof file?.file_id === 'string') return true;
  if ((part.type === 'input_file' || part.type === 'input_image') && (typeof part.file_id === 'string' || typeof part.file_url === 'string')) return true;
  return (part.type === 'document' || part.type === 'image') && (typeof source?.file_id === 'string' || (part.type === 'document' && source?.type === 'url'));
}

const IMAGE_PART_TYPES = new Set(['image_url', 'image', 'input_image']);

/** The image parts of a request body in any protocol (chat's image_url, Anthropic's image, Responses' input_image). */
export function countImageParts(body: Readonly<Record<string, unknown>>): number {
  return promptParts(body).images;
}

/**
 * The content parts of a request in every protocol, where they stand: chat's and Anthropic's messages and
 * their content (a tool result's content too), the Responses API's input items, their content and a call
 * output's `output`. Not what a part carries (a tool call's input is the model's, which names no file the
 * provider reads). Walked with a stack of its own, item by item: an input of a million token ids is a long
 * list, not a deep one.
 */
function* contentParts(body: unknown): Generator<Record<string, unknown>> {
  const pending: unknown[] = [];
  const pushAll = (list: unknown) => {
    if (!Array.isArray(list)) return;
    for (let index = list.length - 1; index >= 0; index -= 1) pending.push(list[index]);
  };
  const root = asJsonObject(body);
  pushAll(root?.messages);
  pushAll(root?.input);
  while (pending.length > 0) {
    const part = asJsonObject(pending.pop());
    if (!part) continue;
    yield part;
    pushAll(part.content);
    pushAll(part.output);
  }
}

/**
 * The usage of an answer whose upstream reported none (or was cut off before its final usage), counted
 * with the tokenizer: the upstream's provisional counts are kept where it gave them (Anthropic announces
 * the prompt first), the output is the larger of its placeholder and the generated text's count, and the
 * web searches are those the stream announced. The
 * prompt is counted once, however often the estimate is asked for; its token ids (`promptTokenIds`) are
 * counted as they are.
 */
export function createUsageEstimator(promptText: () => string, promptTokenIds: () => number = () => 0) {
  let promptTokens: Promise<number> | undefined;
  return async (observed: Pick<MeteredObservation, 'provisionalUsage' | 'completionText' | 'webSearches'>): Promise<TokenUsage> => {
    const provisional = observed.provisionalUsage;
    promptTokens ??= countTokens(promptText()).then((counted) => counted + promptTokenIds());
    return {
      promptTokens: provisional?.promptTokens || (await promptTokens),
      completionTokens: Math.max(provisional?.completionTokens ?? 0, await countTokens(observed.completionText)),
      cachedTokens: provisional?.cachedTokens ?? 0,
      reasoningTokens: 0,
      ...(provisional?.cacheWriteTokens ? { cacheWriteTokens: provisional.cacheWriteTokens } : {}),
      ...(provisional?.cacheWrite1hTokens ? { cacheWrite1hTokens: provisional.cacheWrite1hTokens } : {}),
      // The searches the provider ran before the stream broke off: billed whether or not an answer followed.
      ...(observed.webSearches ? { units: { webSearches: observed.webSearches } } : {}),
      estimated: true,
    };
  };
}

export type UsageEstimator = ReturnType<typeof createUsageEstimator>;

/**
 * A stream whose provider refused it in it (an error event saying it was not served: no quota, rate limited,
 * overloaded, a refused credential or request) before it began an answer or reported usage: billed nothing,
 * as the same refusal answered before the stream is (providers bill no refused request), and not the
 * estimate of a prompt no model answered. A server error or a time-out may come after work not shown
 * (hidden reasoning): the estimate stands.
 */
export function failedBeforeGenerating(observed: MeteredObservation): boolean {
  const refused = observed.upstreamError !== undefined && NOT_SERVED.has(observed.upstreamError.type);
  return refused && observed.usage === undefined && observed.generated !== true && !observed.webSearches;
}

const NOT_SERVED: ReadonlySet<CanonicalErrorType> = new Set(['billing', 'rate-limit', 'overloaded', 'authentication', 'permission', 'invalid-request', 'request-too-large', 'not-found']);

/** The usage to record: what the upstream reported, else the estimate. */
export function finalUsageOf(observed: MeteredObservation, estimate: UsageEstimator): Promise<TokenUsage> {
  return observed.usage ? Promise.resolve(observed.usage) : estimate(observed);
}
