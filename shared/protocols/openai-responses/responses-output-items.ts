import { writeReasoningCarrier } from './reasoning-carrier.ts';
import { echoedRequestFields } from './responses-echo.ts';

/**
 * The output items and the response object of a translated answer, in the shape OpenAI sends them (one
 * place for the JSON answer and the stream, so both say the same). Item ids are made from the gateway's
 * response id and the item's output index, so they are unique within and across responses.
 */
export type OutputItemKind = 'message' | 'reasoning' | 'function_call' | 'custom_tool_call';

const ID_PREFIX: Record<OutputItemKind, string> = { message: 'msg', reasoning: 'rs', function_call: 'fc', custom_tool_call: 'ctc' };

export function outputItemId(kind: OutputItemKind, responseId: string, outputIndex: number): string {
  return `${ID_PREFIX[kind]}_${responseId}_${outputIndex}`;
}

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export function outputTextPart(text: string) {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

export function messageItem(id: string, status: ItemStatus, text: string | undefined) {
  return { id, type: 'message', status, content: text === undefined ? [] : [outputTextPart(text)], role: 'assistant' };
}

export function summaryPart(text: string) {
  return { type: 'summary_text', text };
}

export function reasoningItem(id: string, summary: string | undefined, carried: { signature?: string | undefined; encrypted?: string | undefined } = {}) {
  const encrypted = writeReasoningCarrier(carried);
  return { id, type: 'reasoning', summary: summary === undefined ? [] : [summaryPart(summary)], ...(encrypted ? { encrypted_content: encrypted } : {}) };
}

export function toolCallItem(id: string, status: ItemStatus, call: { callId: string; name: string; input: string; custom: boolean }) {
  return call.custom
    ? { id, type: 'custom_tool_call', status, call_id: call.callId, input: call.input, name: call.name }
    : { id, type: 'function_call', status, arguments: call.input, call_id: call.callId, name: call.name };
}

export interface ResponseObjectShape {
  id: string;
  createdAt: number;
  model: string;
  status: 'in_progress' | 'completed' | 'incomplete' | 'failed';
  output: unknown[];
  usage: Record<string, unknown> | null;
  incompleteReason?: string | undefined;
  /** The client's request, whose parameters the response repeats. */
  request: Readonly<Record<string, unknown>>;
}

/** A response object with every field the official SDKs type as required, the request's parameters among them. */
export function responseObject(shape: ResponseObjectShape) {
  return {
    id: shape.id,
    object: 'response',
    created_at: shape.createdAt,
    status: shape.status,
    error: null,
    incomplete_details: shape.incompleteReason ? { reason: shape.incompleteReason } : null,
    model: shape.model,
    output: shape.output,
    ...echoedRequestFields(shape.request),
    usage: shape.usage,
  };
}
