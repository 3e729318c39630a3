/**
 * The request parameters a response object repeats, as OpenAI's do: the client's own values where it sent
 * them, OpenAI's defaults where it did not. `store` is false and `previous_response_id` null whatever was
 * asked: a translated answer is stored nowhere, and a previous response never reaches a translation.
 */
export function echoedRequestFields(request: Readonly<Record<string, unknown>>) {
  const sent = (field: string, fallback: unknown) => request[field] ?? fallback;
  const optional = (field: string) => (request[field] === undefined || request[field] === null ? {} : { [field]: request[field] });
  return {
    instructions: sent('instructions', null),
    max_output_tokens: sent('max_output_tokens', null),
    parallel_tool_calls: sent('parallel_tool_calls', true),
    previous_response_id: null,
    reasoning: { effort: null, summary: null, ...objectOrEmpty(request.reasoning) },
    store: false,
    temperature: sent('temperature', null),
    text: { format: { type: 'text' }, ...objectOrEmpty(request.text) },
    tool_choice: sent('tool_choice', 'auto'),
    tools: sent('tools', []),
    top_p: sent('top_p', null),
    truncation: sent('truncation', 'disabled'),
    ...optional('user'),
    ...optional('safety_identifier'),
    ...optional('prompt_cache_key'),
    metadata: sent('metadata', {}),
  };
}

function objectOrEmpty(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
