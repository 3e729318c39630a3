import type { CanonicalRequest } from '../../canonical/canonical-request.ts';
import type { CanonicalOutput, CanonicalResponse } from '../../canonical/canonical-response.ts';
import { customToolNames, toolCallArgumentsOf } from '../../canonical/custom-tool-input.ts';
import { parseProviderPayload } from '../../canonical/read-payload.ts';
import { GatewayError } from '../../core/errors.ts';
import { asJsonObject } from '../../core/json-object.ts';
import { converseStopSequence, mapConverseStopReason } from './converse-stop-reason.ts';
import { readConverseUsage } from './converse-usage.ts';
import { converseResponseSchema, type ConverseContentBlock } from './converse-wire-types.ts';

/** Whether a complete answer is a Converse answer: one has `output.message`. */
export function isConverseAnswer(payload: Record<string, unknown>): boolean {
  return asJsonObject(asJsonObject(payload.output)?.message) !== undefined;
}

/**
 * A Converse answer in canonical terms: text, reasoning (with its signature) and tool uses (input as JSON
 * text); blocks of other kinds (citations, guard content, images) have no canonical form and are left
 * out. Converse names neither the answer nor the model: both stay empty (the writer names them).
 */
export function readConverseResponse(payload: unknown, request?: CanonicalRequest): CanonicalResponse {
  const answer = parseProviderPayload(converseResponseSchema, payload);
  if (!answer?.output?.message) {
    throw new GatewayError('upstream', 'The upstream answered with a body that is not a Converse answer.', { code: 'upstream_invalid_response' });
  }
  const customTools = customToolNames(request);
  const content = (answer.output.message.content ?? []).flatMap((block) => readBlock(block, customTools));
  const usage = readConverseUsage(answer.usage);
  const stopSequence = converseStopSequence(answer.stopReason, request);
  return {
    id: '',
    model: '',
    content,
    finish: mapConverseStopReason(answer.stopReason),
    ...(answer.stopReason ? { rawFinish: answer.stopReason } : {}),
    ...(stopSequence !== undefined ? { stopSequence } : {}),
    ...(usage ? { usage } : {}),
  };
}

function readBlock(block: ConverseContentBlock, customTools: ReadonlySet<string>): CanonicalOutput[] {
  if (block.text) return [{ type: 'text', text: block.text }];
  const reasoning = block.reasoningContent?.reasoningText;
  if (reasoning?.text) return [{ type: 'reasoning', text: reasoning.text, ...(reasoning.signature ? { signature: reasoning.signature } : {}) }];
  const tool = block.toolUse;
  if (!tool) return [];
  const custom = customTools.has(tool.name ?? '');
  const argumentsText = toolCallArgumentsOf(tool.input, custom);
  return [{ type: 'tool-call', id: tool.toolUseId ?? '', name: tool.name ?? '', arguments: argumentsText, ...(custom ? { custom } : {}) }];
}
