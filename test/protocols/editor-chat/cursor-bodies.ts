/**
 * Cursor's Responses-shaped agent body, composed from the public captures and tests collected in the
 * editor notes (gabrii's Codex request adapter tests, a "GPT54LogShape" proxy test, codex-proxy #707/#708,
 * LiteLLM #34029): no public recording of this shape exists, so it is written here from them, one field
 * each as they show it. The MCP block follows Cursor 2.x's `<mcp_file_system>` (a public prompt capture).
 */
export const LONG_SERVER_INSTRUCTIONS =
  'Use this server to read and update tickets in the team tracker. Always search before creating a ticket, so that duplicates are avoided; ' +
  'prefer the &quot;search_issues&quot; tool with a project filter. When a user mentions a ticket key such as ENG-123, fetch it first. ' +
  'Never close tickets without confirmation. Comments support Markdown; keep them short and link the pull request when there is one. ' +
  'Rate limits: 60 requests per minute per user; back off on HTTP 429 and retry after the delay the server gives in Retry-After.';

export const MCP_BLOCK =
  '<mcp_file_system>\nYou have access to MCP (Model Context Protocol) tools through the MCP FileSystem.\n## MCP Tool Access\nCall them with `CallMcpTool`.\n' +
  'Available MCP servers:\n<mcp_file_system_servers>' +
  `<mcp_file_system_server name="user-tracker" folderPath="/home/dev/.cursor/projects/app/mcps/user-tracker" serverUseInstructions="${LONG_SERVER_INSTRUCTIONS}">user-tracker</mcp_file_system_server>` +
  '<mcp_file_system_server name="user-docs" folderPath="/home/dev/.cursor/projects/app/mcps/user-docs" serverUseInstructions="Search the docs.">user-docs</mcp_file_system_server>' +
  '</mcp_file_system_servers>\n</mcp_file_system>';

export const SYSTEM_PROMPT = `You are GPT-5.4. Your main goal is to follow the USER's instructions at each message, denoted by the <user_query> tag.\n${MCP_BLOCK}`;

export const APPLY_PATCH_GRAMMAR = 'start: begin_patch hunk+ end_patch\nbegin_patch: "*** Begin Patch" LF\nend_patch: "*** End Patch" LF?';

export const PATCH = '*** Begin Patch\n*** Update File: src/app.ts\n@@\n-const a = 1;\n+const a = 2;\n*** End Patch';

export function cursorResponsesBody(userQuery = 'fix the bug', extraInput: Array<Record<string, unknown>> = []) {
  return {
    model: 'gpt-5.4',
    user: '95dfaae8bbc5aaa3',
    input: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: '<user_info>OS: linux</user_info>' },
      { role: 'user', content: [{ type: 'input_text', text: `<timestamp>Monday</timestamp>\n<user_query>\n${userQuery}\n</user_query>` }] },
      ...extraInput,
    ],
    messages: [],
    tools: [
      { type: 'function', name: 'ReadFile', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
      { type: 'custom', name: 'ApplyPatch', description: 'Use this tool to edit files.', format: { type: 'grammar', syntax: 'lark', definition: APPLY_PATCH_GRAMMAR } },
    ],
    store: false,
    include: ['reasoning.encrypted_content'],
    reasoning: { effort: 'medium', summary: 'auto' },
    stream: true,
    stream_options: { include_usage: true },
    prompt_cache_retention: '24h',
    service_tier: 'fast',
    metadata: { cursorConversationId: '5e66cef0-7372-496e-aa21-476a66401a2a', cursorRequestId: 'req-1' },
  };
}

/** The items a turn with a shell call and an ApplyPatch call adds, replayed as Cursor replays them. */
export const TOOL_TURN_ITEMS: Array<Record<string, unknown>> = [
  { type: 'reasoning', id: 'rs_1', summary: [] },
  { type: 'message', role: 'assistant', content: [] },
  { type: 'function_call', call_id: 'call_1', name: 'ReadFile', arguments: '{"path":"src/app.ts"}' },
  { type: 'function_call_output', call_id: 'call_1', output: [{ type: 'output_text', text: 'const a = 1;' }] },
  { type: 'function_call', call_id: 'call_2', name: 'ApplyPatch', arguments: PATCH },
  { type: 'function_call_output', call_id: 'call_2', output: 'Done.' },
];
