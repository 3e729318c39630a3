/** One request a route-group exercise sends, with the status it must answer. */
export interface ExerciseRequest {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  status: number;
}

/**
 * The requests that make each route group send every AWS command it can: chat, streams, models, stored
 * objects, video jobs, the tool bridge, and every Bedrock model in `bedrockModels` over both operations
 * from each route group that calls models.
 */
export function routeGroupRequests(bedrockModels: readonly string[]): Record<string, ExerciseRequest[]> {
  const chat = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }], max_tokens: 50 };
  const messages = { model: 'openai/gpt-4o-mini', max_tokens: 50, messages: [{ role: 'user', content: 'Hello' }] };
  const mcpAccept = { accept: 'application/json, text/event-stream' };
  const onBedrock = (body: Record<string, unknown>) => bedrockModels.flatMap((model) => [false, true].map((stream) => ({ ...body, model: `bedrock/${model}`, stream })));
  return {
    openai: [
      { method: 'POST', path: '/v1/chat/completions', body: chat, status: 200 },
      { method: 'POST', path: '/v1/chat/completions', body: { ...chat, stream: true }, status: 200 },
      { method: 'GET', path: '/v1/models', status: 200 },
      { method: 'GET', path: '/v1/generation?id=req-known', status: 200 },
      // The key and credit checks read the project's spend and balance (GetItem of its usage item).
      { method: 'GET', path: '/v1/key', status: 200 },
      { method: 'GET', path: '/v1/credits', status: 200 },
      // Video jobs: remembered (PutItem), found and their completion claimed (GetItem, UpdateItem), listed (Query).
      { method: 'POST', path: '/v1/videos', body: { model: 'openai/sora-2', prompt: 'a lighthouse', seconds: '4' }, status: 200 },
      { method: 'GET', path: '/v1/videos/video_lp', status: 200 },
      { method: 'GET', path: '/v1/videos', status: 200 },
      ...onBedrock(chat).map((body) => ({ method: 'POST', path: '/v1/chat/completions', body, status: 200 })),
    ],
    messages: [
      { method: 'POST', path: '/v1/messages', body: messages, status: 200 },
      { method: 'POST', path: '/v1/messages', body: { ...messages, stream: true }, status: 200 },
      { method: 'POST', path: '/v1/messages/count_tokens', body: { model: messages.model, messages: messages.messages }, status: 200 },
      ...onBedrock(messages).map((body) => ({ method: 'POST', path: '/v1/messages', body, status: 200 })),
    ],
    editor: [
      { method: 'POST', path: '/v1/editor/chat/completions', body: { ...chat, stream: true, stream_options: { include_usage: true } }, status: 200 },
      { method: 'GET', path: '/v1/editor/models', status: 200 },
      ...onBedrock(chat).map((body) => ({ method: 'POST', path: '/v1/editor/chat/completions', body, status: 200 })),
    ],
    mcp: [
      { method: 'POST', path: '/mcp/v1', headers: mcpAccept, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'docs__search', arguments: { query: 'iam' } } }, status: 200 },
      { method: 'POST', path: '/mcp/v1', headers: mcpAccept, body: { jsonrpc: '2.0', id: 2, method: 'tools/list' }, status: 200 },
      { method: 'GET', path: '/mcp/v1', status: 405 },
    ],
  };
}
