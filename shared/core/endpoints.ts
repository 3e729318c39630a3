/**
 * The one vocabulary of endpoint names. A name appears in usage records (`endpoint`), generation records
 * and the usage files; its group is what an access policy allows (`--allowed-endpoints chat,models`).
 */
export const ENDPOINTS = {
  'chat.completions': { group: 'chat' },
  /** The editor client's chat completions (`/v1/editor`, or detected on `/v1`): chat, as access policies see it. */
  'editor.chat_completions': { group: 'chat' },
  /** Its answers are stored upstream under their own id (`resp_…`), which clients name again later. */
  responses: { group: 'responses', storesUpstreamObjects: true },
  /** GET, DELETE, cancel and input items of a stored response (not metered: nothing is generated). */
  'responses.stored': { group: 'responses' },
  /** Compacting a conversation (OpenAI's encrypted compaction): a generation, metered; nothing is stored. */
  'responses.compact': { group: 'responses' },
  /** Counting a Responses request's input tokens (not metered, as count_tokens). */
  'responses.input_tokens': { group: 'responses' },
  /** Legacy text completions (`/v1/completions`). */
  completions: { group: 'completions' },
  embeddings: { group: 'embeddings' },
  'images.generations': { group: 'images' },
  'images.edits': { group: 'images' },
  'audio.speech': { group: 'audio' },
  'audio.transcriptions': { group: 'audio' },
  'audio.translations': { group: 'audio' },
  moderations: { group: 'moderations' },
  rerank: { group: 'rerank' },
  /** Creating a video: an asynchronous job the gateway remembers for the project that created it. */
  videos: { group: 'videos' },
  /** Retrieving, listing, deleting and downloading the project's videos; a job seen completed is billed once. */
  'videos.stored': { group: 'videos' },
  /** Any other `/v1/*` route, passed through to the provider when the project allows it. */
  passthrough: { group: 'passthrough' },
  messages: { group: 'messages' },
  'messages.count_tokens': { group: 'messages' },
  models: { group: 'models' },
  generation: { group: 'generation' },
  /** The calling key and its project's spend and balance (`GET /v1/key`, `/v1/auth/key`): OpenRouter's key check. */
  key: { group: 'credits' },
  /** The project's credits and usage (`GET /v1/credits`). */
  credits: { group: 'credits' },
  /** Any request to the tool bridge (`/mcp/v1`): initialize, the lists, reads and prompts. */
  mcp: { group: 'mcp' },
  /** One bridged tool call: the unit the bridge meters. */
  'mcp.tools_call': { group: 'mcp' },
} as const satisfies Record<string, { group: string; storesUpstreamObjects?: true }>;

export type EndpointName = keyof typeof ENDPOINTS;
export type EndpointGroup = (typeof ENDPOINTS)[EndpointName]['group'];

/** The groups an access policy can name, each once, in a stable order. */
export const ENDPOINT_GROUPS: readonly EndpointGroup[] = [...new Set(Object.values(ENDPOINTS).map((endpoint) => endpoint.group))];

export function endpointGroupOf(endpoint: EndpointName): EndpointGroup {
  return ENDPOINTS[endpoint].group;
}

/**
 * Whether the answers of an endpoint (named as a usage record names it) live on at the provider under their
 * upstream id, so the gateway must remember which project and provider made each.
 */
export function storesUpstreamObjects(endpoint: string): boolean {
  const known = (ENDPOINTS as Record<string, { storesUpstreamObjects?: true }>)[endpoint];
  return known?.storesUpstreamObjects === true;
}

export function isEndpointGroup(name: string): name is EndpointGroup {
  return (ENDPOINT_GROUPS as readonly string[]).includes(name);
}
