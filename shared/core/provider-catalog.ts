import { knownProviders, MOCK_PROVIDER } from './known-providers.ts';
import { isConversationProtocol, type AllowedModel, type ConversationProtocolId, type ProviderConfig, type WireProtocolId } from './project-config.ts';
import { reasonsAsOpenAiModel } from './reasoning-models.ts';

export { knownProviders, MOCK_BASE_URL, MOCK_PROVIDER, type KnownProvider } from './known-providers.ts';

/** Azure OpenAI's hosts (classic and AI Foundry), whose `/openai/v1` API serves the Responses API. */
const AZURE_OPENAI_HOST = /\.(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com)$/i;

/**
 * Whether an OpenAI-protocol provider serves the Responses API unless told otherwise: OpenAI, OpenRouter
 * and Azure OpenAI do; other OpenAI-compatible servers mostly serve chat completions only.
 */
export function servesResponsesByDefault(provider: string, baseUrl: string): boolean {
  return knownProviders[provider]?.servesResponses === true || isAzureOpenAi(baseUrl);
}

/**
 * Whether a provider takes OpenAI's custom tools in chat completions: OpenAI only. OpenRouter and Azure
 * OpenAI serve the Responses API, where the editor and Codex reach them natively; their chat completions
 * serve other vendors' models too, so a custom tool there goes as a function tool, which every model takes.
 */
export function takesCustomTools(provider: string): boolean {
  return knownProviders[provider]?.customTools === true;
}

/**
 * Whether a provider is OpenAI's own API (OpenAI, Azure OpenAI), whose chat completions cap an answer with
 * `max_completion_tokens`: its reasoning models refuse `max_tokens` with a 400, every other model of it
 * takes both. Other OpenAI-compatible servers are sent `max_tokens`, the field they all take.
 */
export function capsWithMaxCompletionTokens(provider: string, baseUrl: string): boolean {
  return knownProviders[provider]?.maxCompletionTokens === true || isAzureOpenAi(baseUrl);
}

/** Whether a provider reads OpenRouter's `reasoning` object in chat completions: OpenRouter alone. */
export function readsReasoningObject(provider: string): boolean {
  return knownProviders[provider]?.reasoningObject === true;
}

/** Base URLs already looked at: the request path asks for every target, and a project has few base URLs. */
const azureBaseUrls = new Map<string, boolean>();

function isAzureOpenAi(baseUrl: string): boolean {
  let azure = azureBaseUrls.get(baseUrl);
  if (azure === undefined) {
    azure = URL.canParse(baseUrl) && AZURE_OPENAI_HOST.test(new URL(baseUrl).hostname);
    azureBaseUrls.set(baseUrl, azure);
  }
  return azure;
}

export function providerRequiresApiKey(provider: string): boolean {
  return knownProviders[provider]?.requiresApiKey ?? true;
}

/**
 * Whether the gateway can authorize calls to a configured provider: with its stored key, by signing them
 * with AWS credentials (a Bedrock provider under any name), or because it needs no credential.
 */
export function canAuthorizeCalls(provider: Pick<ProviderConfig, 'provider' | 'auth' | 'hasApiKey'>): boolean {
  return provider.auth === 'aws-sigv4' || provider.hasApiKey || !providerRequiresApiKey(provider.provider);
}

/** The chat parameters OpenAI-compatible providers honour, as OpenRouter's `supported_parameters` names them. */
const OPENAI_CHAT_PARAMETERS = [
  'max_tokens', 'temperature', 'top_p', 'stop', 'frequency_penalty', 'presence_penalty', 'seed', 'logit_bias',
  'logprobs', 'top_logprobs', 'response_format', 'tools', 'tool_choice', 'parallel_tool_calls',
] as const;

/**
 * OpenRouter's names of the reasoning settings, which a chat provider honours (but a model of OpenAI's own
 * API that does not reason), and a translation carries; `include_reasoning` the gateway applies itself,
 * whatever the model.
 */
const REASONING_PARAMETERS = ['reasoning', 'include_reasoning', 'reasoning_effort'] as const;

/** What a translation to Anthropic's protocol carries (the rest it drops and names). */
const ANTHROPIC_CHAT_PARAMETERS = ['max_tokens', 'temperature', 'top_p', 'stop', 'tools', 'tool_choice', 'parallel_tool_calls', ...REASONING_PARAMETERS] as const;

/** What a translation to the Responses API carries (stop sequences have no Responses form). */
const RESPONSES_CHAT_PARAMETERS = ['max_tokens', 'temperature', 'top_p', 'response_format', 'tools', 'tool_choice', 'parallel_tool_calls', ...REASONING_PARAMETERS] as const;

/** What a translation to Bedrock's Converse carries (its inferenceConfig and toolConfig). */
const CONVERSE_CHAT_PARAMETERS = ['max_tokens', 'temperature', 'top_p', 'stop', 'tools', 'tool_choice'] as const;

/** The offline mock reads only the tools (it calls one when asked: docs/decisions/mock-provider.md). */
const MOCK_PARAMETERS = ['tools', 'tool_choice'] as const;

/** What a chat request carries when translated to each upstream protocol (chat itself: see below). */
const TRANSLATED_CHAT_PARAMETERS: Readonly<Record<Exclude<ConversationProtocolId, 'openai-chat'>, readonly string[]>> = {
  'openai-responses': RESPONSES_CHAT_PARAMETERS,
  'anthropic-messages': ANTHROPIC_CHAT_PARAMETERS,
  'bedrock-anthropic-messages': ANTHROPIC_CHAT_PARAMETERS,
  'bedrock-converse': CONVERSE_CHAT_PARAMETERS,
};

/**
 * Whether a chat model takes the reasoning settings: every one but a model of OpenAI's own API (OpenAI,
 * Azure OpenAI) that does not reason, which refuses them (chat-request.ts sends it none of OpenRouter's);
 * another server's model may reason whatever its id, and gets them.
 */
export function takesReasoningSettings(provider: Pick<ProviderConfig, 'provider' | 'baseUrl'>, model: Pick<AllowedModel, 'model' | 'reasoning'>): boolean {
  return takesReasoningWith({ maxCompletionTokens: capsWithMaxCompletionTokens(provider.provider, provider.baseUrl), reasoningModel: reasonsAsOpenAiModel(model) });
}

/** The same rule, told by a target's features as its bridge has them (OpenAI's own API, a model that reasons; unknown: reasons). */
export function takesReasoningWith(features: { maxCompletionTokens: boolean; reasoningModel?: boolean | undefined }): boolean {
  return !features.maxCompletionTokens || features.reasoningModel !== false;
}

/**
 * The chat request parameters a model served over these protocols honours, for the model list and
 * `provider.require_parameters`: natively over chat completions (the reasoning settings where it takes
 * them: takesReasoningSettings), else through the translation to the provider's first protocol (the one
 * the bridge takes).
 */
export function supportedChatParameters(provider: string, protocols: readonly WireProtocolId[], takesReasoning = true): string[] {
  if (provider === MOCK_PROVIDER) return [...MOCK_PARAMETERS];
  const first = protocols.find(isConversationProtocol);
  if (!protocols.includes('openai-chat') && first && first !== 'openai-chat') return [...TRANSLATED_CHAT_PARAMETERS[first]];
  const unsupported = knownProviders[provider]?.unsupportedParameters ?? [];
  const honoured = OPENAI_CHAT_PARAMETERS.filter((parameter) => !unsupported.includes(parameter));
  return takesReasoning ? [...honoured, ...REASONING_PARAMETERS] : [...honoured, 'include_reasoning'];
}

/** Every parameter some protocol's list names: what `require_parameters` checks (`messages`, `stream`, `user`… every provider takes). */
const CHECKED_PARAMETERS: ReadonlySet<string> = new Set([...OPENAI_CHAT_PARAMETERS, ...REASONING_PARAMETERS, ...Object.values(TRANSLATED_CHAT_PARAMETERS).flat()]);

/**
 * The request's parameters a model served over these protocols would not honour (`provider.require_parameters`):
 * those its provider documents as unsupported, those a translation drops (a Claude model's `logprobs`), the
 * reasoning settings where the model takes none (takesReasoningSettings). The same lists `/v1/models` gives.
 */
export function unsupportedRequestParameters(provider: string, protocols: readonly WireProtocolId[], takesReasoning: boolean, parameters: readonly string[]): string[] {
  const supported = new Set(supportedChatParameters(provider, protocols, takesReasoning));
  return parameters.filter((parameter) => CHECKED_PARAMETERS.has(parameter) && !supported.has(parameter));
}
