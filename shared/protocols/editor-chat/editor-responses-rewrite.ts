import { isOpenAiReasoningModel } from '../../core/reasoning-models.ts';

/**
 * Reasoning models refuse sampling parameters (`temperature`, `top_p`): the editor sends `temperature: 0`
 * to GPT-5 in its chat-shaped bodies. A request is for a reasoning model when it asks for reasoning, or
 * names a model of a reasoning family.
 */
const SAMPLING_PARAMETERS = ['temperature', 'top_p'] as const;

function isForReasoningModel(body: Record<string, unknown>, upstreamModel: string): boolean {
  return (typeof body.reasoning === 'object' && body.reasoning !== null) || isOpenAiReasoningModel(upstreamModel);
}

/**
 * The editor's request (already a Responses body: see parseEditorRequest) for an upstream that serves the
 * Responses API: its model id, and no sampling parameters for a reasoning model. Everything else goes as
 * the editor sent it, encrypted reasoning, `include`, `store` and the grammar of ApplyPatch included.
 */
export function writeEditorResponsesBody(body: Record<string, unknown>, upstreamModel: string): Record<string, unknown> {
  const upstream: Record<string, unknown> = { ...body, model: upstreamModel };
  if (isForReasoningModel(upstream, upstreamModel)) for (const parameter of SAMPLING_PARAMETERS) delete upstream[parameter];
  return upstream;
}
