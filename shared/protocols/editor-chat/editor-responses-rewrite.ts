import { takesReasoningWith } from '../../core/provider-catalog.ts';
import { isKnownNonReasoningOpenAiModel } from '../../core/reasoning-models.ts';
import { reasonsLikeOpenAi } from '../../canonical/reasoning-settings.ts';
import { ENCRYPTED_REASONING_INCLUDE } from '../openai-responses/reasoning-carrier.ts';
import type { NativeFeatures } from '../wire-protocol.ts';

/**
 * Reasoning models refuse sampling parameters (`temperature`, `top_p`): the editor sends `temperature: 0`
 * to GPT-5 in its chat-shaped bodies. A request is for a reasoning model when it asks for reasoning, or
 * names a model of a reasoning family.
 */
const SAMPLING_PARAMETERS = ['temperature', 'top_p'] as const;

function isForReasoningModel(body: Record<string, unknown>, upstreamModel: string, features: NativeFeatures): boolean {
  return (typeof body.reasoning === 'object' && body.reasoning !== null) || reasonsLikeOpenAi(upstreamModel, features);
}

/** What a server that reads no reasoning is told when nothing is known of it: another server's model may reason, whatever its id. */
const UNKNOWN_SERVER: NativeFeatures = { maxCompletionTokens: false, reasoningObject: false };

/**
 * The editor's request (already a Responses body: see parseEditorRequest) for an upstream that serves the
 * Responses API: its model id, and no sampling parameters for a reasoning model. Everything else goes as
 * the editor sent it, encrypted reasoning, `include`, `store` and the grammar of ApplyPatch included;
 * except to a model of OpenAI's own API known not to reason (gpt-4o, gpt-4.1), which refuses every
 * reasoning field with a 400 ("Unsupported parameter: 'reasoning.effort'", "Encrypted content is not
 * supported with this model"), and which the editor sends them all the same: it gets none of them, and
 * keeps its temperature.
 */
export function writeEditorResponsesBody(body: Record<string, unknown>, upstreamModel: string, features: NativeFeatures = UNKNOWN_SERVER): Record<string, unknown> {
  const upstream: Record<string, unknown> = { ...body, model: upstreamModel };
  if (refusesReasoning(upstreamModel, features)) return withoutReasoning(upstream);
  if (isForReasoningModel(upstream, upstreamModel, features)) for (const parameter of SAMPLING_PARAMETERS) delete upstream[parameter];
  return upstream;
}

/**
 * A model of OpenAI's own API known not to reason: the admin marked it so (`--reasoning no`, an Azure
 * deployment's name), or, unmarked, its id is one of OpenAI's models that do not reason. One whose id says
 * nothing (a deployment's name, unmarked) may reason, and a reasoning model without its reasoning fields
 * would refuse the editor's `temperature: 0` instead.
 */
function refusesReasoning(upstreamModel: string, features: NativeFeatures): boolean {
  if (takesReasoningWith({ maxCompletionTokens: features.maxCompletionTokens, reasoningModel: reasonsLikeOpenAi(upstreamModel, features) })) return false;
  return features.reasoningMarked === false || isKnownNonReasoningOpenAiModel(upstreamModel);
}

/** The body without its reasoning setting, the encrypted reasoning it asks back, and the reasoning items it replays (a turn of a model that reasons). */
function withoutReasoning({ reasoning: _reasoning, include, input, ...rest }: Record<string, unknown>): Record<string, unknown> {
  const included = Array.isArray(include) ? include.filter((item) => item !== ENCRYPTED_REASONING_INCLUDE) : include;
  const items = Array.isArray(input) ? input.filter((item: unknown) => !(typeof item === 'object' && item !== null && (item as { type?: unknown }).type === 'reasoning')) : input;
  return {
    ...rest,
    ...(included === undefined || (Array.isArray(included) && included.length === 0) ? {} : { include: included }),
    ...(items === undefined ? {} : { input: items }),
  };
}
