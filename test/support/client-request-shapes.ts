/**
 * Request bodies clients really send (chat completions and Responses, as OpenAI's SDKs, chat apps and Codex
 * build them; Messages, as Anthropic's SDK and Claude Code do), each named by what it exercises: run against fake upstreams that refuse what the real ones
 * refuse, every translation of them must be taken.
 */
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const weather = { type: 'function', function: { name: 'get_weather', description: 'Weather now', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };
const noArguments = { type: 'function', function: { name: 'list_files' } };
const emptySchema = { type: 'function', function: { name: 'now', parameters: {} } };
const toolLoop = [
  { role: 'user', content: 'Weather in Paris and London?' },
  {
    role: 'assistant',
    content: '',
    tool_calls: [
      { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"London"}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
  { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: '12°C' }] },
];

/** Chat completions bodies, each with what it exercises. */
export const CHAT_BODIES: Array<[string, Record<string, unknown>]> = [
  ['temperature, top_p and stop, as chat apps send them', { messages: [{ role: 'user', content: 'Hi' }], temperature: 0.7, top_p: 0.9, stop: ['END'] }],
  ['OpenAI-only fields', {
    messages: [{ role: 'developer', content: 'Be brief.' }, { role: 'user', content: 'Hi' }],
    seed: 1, frequency_penalty: 0.1, presence_penalty: 0.1, logit_bias: { '50256': -100 }, logprobs: true, top_logprobs: 2, store: true,
    metadata: { team: 'a' }, service_tier: 'auto', prompt_cache_key: 'k', safety_identifier: 'u1', verbosity: 'low', parallel_tool_calls: false, stream_options: undefined,
  }],
  ['a parallel tool loop whose assistant turn has empty content', { messages: [...toolLoop], tools: [weather, noArguments, emptySchema] }],
  ['a tool loop with a reasoning effort (its assistant turn carries no thinking)', { messages: [...toolLoop], tools: [weather], reasoning_effort: 'medium' }],
  ['a forced tool with a reasoning effort and a temperature', { messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [weather], tool_choice: 'required', reasoning_effort: 'high', temperature: 0.3 }],
  ['a named tool with parallel calls off', { messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [weather], tool_choice: { type: 'function', function: { name: 'get_weather' } }, parallel_tool_calls: false }],
  ['tool_choice none without tools', { messages: [{ role: 'user', content: 'Hi' }], tool_choice: 'none' }],
  ['system turns in the middle, an image, a whitespace-only turn', {
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: PNG, detail: 'low' } }] },
      { role: 'assistant', content: 'A pixel.' },
      { role: 'system', content: 'Answer in French.' },
      { role: 'user', content: '   ' },
      { role: 'user', content: 'And now?' },
    ],
  }],
  ['an assistant greeting first, as chat apps open a conversation', { messages: [{ role: 'system', content: 'You are a pirate.' }, { role: 'assistant', content: 'Ahoy! How may I help ye?' }, { role: 'user', content: 'Hi' }] }],
  ['a system prompt alone', { messages: [{ role: 'system', content: 'Write a haiku about the sea.' }] }],
  ['a prefill ending in a space', { messages: [{ role: 'user', content: 'Say a word' }, { role: 'assistant', content: 'The word is ' }] }],
  ['a long end-user id and a temperature above 1', { messages: [{ role: 'user', content: 'Hi' }], user: 'u'.repeat(300), temperature: 1.6 }],
  ['structured output and a max_completion_tokens', { messages: [{ role: 'user', content: 'Hi' }], max_completion_tokens: 500, response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object', properties: {} } } } }],
  ['legacy functions, a function call and its result', {
    messages: [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, function_call: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { role: 'function', name: 'get_weather', content: '18°C' },
    ],
    functions: [weather.function], function_call: 'auto',
  }],
  ['a tool call with empty arguments and a JPEG named image/jpg', {
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'image_url', image_url: { url: 'data:image/jpg;base64,/9j/4AAQSkZJRgABAQ==' } }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'list_files', arguments: '' } }] },
      { role: 'tool', tool_call_id: 'call_9', content: 'a.txt' },
    ],
    tools: [noArguments],
  }],
  ['a stop string, a named user, strict tools and n of 1', {
    messages: [{ role: 'user', name: 'alice', content: 'Weather?' }], stop: 'END', n: 1,
    tools: [{ type: 'function', function: { ...weather.function, strict: true, parameters: { ...weather.function.parameters, additionalProperties: false } } }],
  }],
  ['each effort a client may name', { messages: [{ role: 'user', content: 'Hi' }], reasoning_effort: 'minimal' }],
  ['no effort at all', { messages: [{ role: 'user', content: 'Hi' }], reasoning_effort: 'none', temperature: 0.2 }],
  ['the largest effort', { messages: [{ role: 'user', content: 'Hi' }], reasoning_effort: 'xhigh', max_tokens: 2000 }],
  ['a streamed tool loop with an effort', { messages: [...toolLoop], tools: [weather], reasoning_effort: 'low', stream: true, stream_options: { include_usage: true } }],
  ['a five-token probe', { messages: [{ role: 'user', content: 'Say OK' }], max_tokens: 5 }],
  ['a small cap with a high effort', { messages: [{ role: 'user', content: 'Hi' }], max_tokens: 100, reasoning_effort: 'high', top_p: 0.5 }],
];

const codexTools = [
  { type: 'function', name: 'exec_command', description: 'Runs a command', strict: false, parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'], additionalProperties: false } },
  { type: 'custom', name: 'apply_patch', description: 'Applies a patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' } },
  { type: 'web_search' },
];

/** Responses bodies, as Codex and the SDK build them. */
export const RESPONSES_BODIES: Array<[string, Record<string, unknown>]> = [
  ['a Codex turn with its tools, encrypted reasoning and a tool round trip', {
    instructions: 'You are Codex.',
    input: [
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions>…</permissions>' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Run echo hi' }] },
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAA-opaque' },
      { type: 'function_call', call_id: 'call_a', name: 'exec_command', arguments: '{"cmd":"echo hi"}' },
      { type: 'function_call_output', call_id: 'call_a', output: 'hi\n' },
      { type: 'custom_tool_call', call_id: 'call_b', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' },
      { type: 'custom_tool_call_output', call_id: 'call_b', output: 'Done' },
    ],
    tools: codexTools, tool_choice: 'auto', parallel_tool_calls: true, reasoning: { effort: 'high', summary: 'auto' },
    store: false, include: ['reasoning.encrypted_content'], prompt_cache_key: 'session-1', text: { verbosity: 'low' },
  }],
  ['a Codex turn on a model Codex does not know (0.169: a reasoning summary without an effort, client_metadata)', {
    input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
    tools: codexTools, tool_choice: 'auto', parallel_tool_calls: false, reasoning: { summary: 'auto' }, store: false, stream: true,
    include: ['reasoning.encrypted_content'], prompt_cache_key: 'session-2', client_metadata: { originator: 'codex_exec' },
  }],
  ['sampling, a cap and an end-user id', { input: 'Hi', temperature: 0.4, top_p: 0.8, max_output_tokens: 300, user: 'someone', safety_identifier: 'someone', metadata: { a: 'b' }, service_tier: 'auto', truncation: 'auto' }],
  ['a streamed turn with the least effort, and structured output', { input: 'Hi', stream: true, reasoning: { effort: 'minimal' }, text: { format: { type: 'json_schema', name: 'a', schema: { type: 'object', properties: {} }, strict: true } } }],
  ['an image and a file id-less input', { input: [{ role: 'user', content: [{ type: 'input_text', text: 'What is it?' }, { type: 'input_image', image_url: PNG, detail: 'auto' }] }] }],
];

const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const claudeWeather = { name: 'get_weather', description: 'Weather now', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
const claudeToolLoop = [
  { role: 'user', content: 'Weather in Paris and London?' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Checking both.' },
      { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'toolu_01B19q90qw90lq917835lq8', name: 'get_weather', input: { city: 'London' } },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'toolu_01A09q90qw90lq917835lq9', content: '18°C' },
      { type: 'tool_result', tool_use_id: 'toolu_01B19q90qw90lq917835lq8', content: [{ type: 'text', text: '12°C' }], is_error: false },
      { type: 'text', text: 'Which is warmer?' },
    ],
  },
];

/** Messages bodies (the Anthropic SDK's shapes, Claude Code's), each with what it exercises. */
export const MESSAGES_BODIES: Array<[string, Record<string, unknown>]> = [
  ['sampling, top_k and six stop sequences', { messages: [{ role: 'user', content: 'Hi' }], temperature: 0.5, top_p: 0.9, top_k: 40, stop_sequences: ['a', 'b', 'c', 'd', 'e', 'f'] }],
  ['a tool loop with parallel calls and text beside the results', { messages: claudeToolLoop, tools: [claudeWeather] }],
  ['a forced tool, parallel use off', { messages: [{ role: 'user', content: 'Paris?' }], tools: [claudeWeather], tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true } }],
  ['tool_choice any', { messages: [{ role: 'user', content: 'Paris?' }], tools: [claudeWeather], tool_choice: { type: 'any' } }],
  ['a thinking budget', { messages: [{ role: 'user', content: 'Hi' }], thinking: { type: 'enabled', budget_tokens: 10_000 }, max_tokens: 16_000 }],
  ['Claude Code: adaptive thinking, an effort, context management, cache marks, a long user id and a 32,000 cap', {
    system: [{ type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }] }],
    tools: [{ ...claudeWeather, cache_control: { type: 'ephemeral' } }],
    thinking: { type: 'adaptive' }, output_config: { effort: 'high' }, context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    metadata: { user_id: JSON.stringify({ device_id: 'd'.repeat(64), account_uuid: '', session_id: '4f0c1d9e-6b2a-4b7e-9a51-0c2f3e4d5a6b' }) },
    max_tokens: 32_000, stream: true,
  }],
  ['an image, a URL image and a PDF', {
    messages: [{
      role: 'user',
      content: [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
        { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' }, title: 'a.pdf' },
        { type: 'text', text: 'What are these?' },
      ],
    }],
  }],
  ['a PDF without a title', { messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' } }, { type: 'text', text: 'Summarise' }] }] }],
  ['structured outputs with an optional property', {
    messages: [{ role: 'user', content: 'Name a city' }],
    output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: { name: { type: 'string' }, country: { type: 'string' } }, required: ['name'], additionalProperties: false } } },
  }],
  ['an earlier signed thinking block and a prefill', {
    messages: [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'Hmm', signature: 'EqQBCkYI' }, { type: 'text', text: 'Hello' }] },
      { role: 'user', content: 'Again' },
      { role: 'assistant', content: 'Sure,' },
    ],
  }],
];

