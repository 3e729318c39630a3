import type { CanonicalEvent, FinishReason } from '../../canonical/canonical-events.ts';
import type { GatewayError } from '../../core/errors.ts';
import type { TokenUsage } from '../../core/token-usage.ts';
import type { ClientStream, Presentation } from '../wire-protocol.ts';
import { asksForEncryptedReasoning } from './reasoning-carrier.ts';
import { responsesFailureFrames, responsesFailureOf, responsesFailureOfGatewayError, type ResponsesFailure } from './responses-errors.ts';
import { responsesEventFrame, stringifyWithResponseCost } from './responses-event-frame.ts';
import { messageItem, outputItemId, outputTextPart, reasoningItem, responseObject, summaryPart, toolCallItem } from './responses-output-items.ts';
import { toResponsesStatus } from './responses-status.ts';
import { responsesAnswerId } from './responses-response-writer.ts';
import { renderResponsesUsage } from './responses-usage.ts';

type OpenItem =
  | { kind: 'message'; index: number; id: string; text: string }
  | { kind: 'reasoning'; index: number; id: string; text: string; summaryOpen: boolean; signature?: string; encrypted?: string }
  /** `ended`: its input is whole, but it is closed by what comes next, which says whether the output cap cut it off. */
  | { kind: 'tool'; index: number; id: string; toolIndex: number; callId: string; name: string; custom: boolean; input: string; ended: boolean };
type MessageItem = Extract<OpenItem, { kind: 'message' }>;
type ReasoningItem = Extract<OpenItem, { kind: 'reasoning' }>;

/**
 * Writes canonical events as a Responses stream, in the order OpenAI documents and sends it: response.created
 * and response.in_progress first; then one output item at a time, each added, given its deltas and done
 * before the next is added (a message with one output_text part; reasoning with one summary part; a
 * function_call or custom_tool_call with its argument or input deltas); finally response.completed (or
 * response.incomplete for the output cap and the content filter, the message or call they cut off
 * `incomplete` as OpenAI marks it) with every item and the usage (with `cost`
 * when injected), written by `end` once the final usage is known. Every event carries a `sequence_number`
 * from 0; item events carry `output_index` and `item_id`. An upstream error, or the gateway's own failure
 * after the first byte (`fail`), becomes an `error` event and response.failed, and ends the output; the
 * failed response carries the items sent so far, as OpenAI's does, the one the failure cut off `incomplete`
 * with what it had received.
 */
export function createResponsesStreamWriter(presentation: Presentation): ClientStream & { fail(error: GatewayError): string } {
  const responseId = responsesAnswerId(undefined, presentation.responseId);
  const carriesReasoning = asksForEncryptedReasoning(presentation.clientBody);
  const done: unknown[] = [];
  let model = presentation.model;
  let sequence = 0;
  let started = false;
  let closed = false;
  let item: OpenItem | undefined;
  let finish: FinishReason | undefined;

  const emit = (type: string, payload: Record<string, unknown>) => responsesEventFrame(type, { ...payload, sequence_number: sequence++ });
  const response = (status: 'in_progress' | 'failed', output: readonly unknown[] = done) =>
    responseObject({ id: responseId, createdAt: presentation.created, model, status, output: [...output], usage: null, request: presentation.clientBody });

  function start(): string {
    if (started) return '';
    started = true;
    return emit('response.created', { response: response('in_progress') }) + emit('response.in_progress', { response: response('in_progress') });
  }

  /** Ends the open item and adds the next one, numbered after every item before it. */
  function open<Next extends OpenItem>(build: (index: number) => { next: Next; added: Record<string, unknown> }): { frames: string; opened: Next } {
    const frames = close();
    const { next, added } = build(done.length);
    item = next;
    return { frames: frames + emit('response.output_item.added', { output_index: next.index, item: added }), opened: next };
  }

  /** The open message item (opened with its output_text part when another item, or none, was open). */
  function openMessage(): { frames: string; message: MessageItem } {
    if (item?.kind === 'message') return { frames: '', message: item };
    const { frames, opened } = open((index) => {
      const id = outputItemId('message', presentation.responseId, index);
      return { next: { kind: 'message' as const, index, id, text: '' }, added: messageItem(id, 'in_progress', undefined) };
    });
    const part = emit('response.content_part.added', { item_id: opened.id, output_index: opened.index, content_index: 0, part: outputTextPart('') });
    return { frames: frames + part, message: opened };
  }

  /** The open reasoning item; text after a signature (which ends Anthropic's thinking block) opens another. */
  function openReasoning(text: string): { frames: string; reasoning: ReasoningItem } {
    if (item?.kind === 'reasoning' && !(text && item.signature)) return { frames: '', reasoning: item };
    const { frames, opened } = open((index) => {
      const id = outputItemId('reasoning', presentation.responseId, index);
      return { next: { kind: 'reasoning' as const, index, id, text: '', summaryOpen: false }, added: reasoningItem(id, undefined) };
    });
    return { frames, reasoning: opened };
  }

  function reasoningText(reasoning: ReasoningItem, text: string): string {
    if (!text) return '';
    let frames = '';
    const location = { item_id: reasoning.id, output_index: reasoning.index, summary_index: 0 };
    if (!reasoning.summaryOpen) {
      reasoning.summaryOpen = true;
      frames += emit('response.reasoning_summary_part.added', { ...location, part: summaryPart('') });
    }
    reasoning.text += text;
    return frames + emit('response.reasoning_summary_text.delta', { ...location, delta: text });
  }

  /** Whether the finish (when one closes the item) is the output cap or the content filter, which cut the item off. */
  function cutOffByFinish(): boolean {
    return toResponsesStatus(finish).status === 'incomplete';
  }

  /** Ends the open item with its `.done` events; the item joins the response's output. */
  function close(): string {
    const closing = item;
    if (!closing) return '';
    item = undefined;
    const where = { item_id: closing.id, output_index: closing.index };
    let frames = '';
    let finished: unknown;
    if (closing.kind === 'message') {
      frames += emit('response.output_text.done', { ...where, content_index: 0, text: closing.text, logprobs: [] });
      frames += emit('response.content_part.done', { ...where, content_index: 0, part: outputTextPart(closing.text) });
      // Closed by a finish for the output cap or the content filter, the message is the text they cut off.
      finished = messageItem(closing.id, cutOffByFinish() ? 'incomplete' : 'completed', closing.text);
    } else if (closing.kind === 'reasoning') {
      if (closing.summaryOpen) {
        frames += emit('response.reasoning_summary_text.done', { ...where, summary_index: 0, text: closing.text });
        frames += emit('response.reasoning_summary_part.done', { ...where, summary_index: 0, part: summaryPart(closing.text) });
      }
      finished = reasoningItem(closing.id, closing.summaryOpen ? closing.text : undefined, carriesReasoning ? closing : undefined);
    } else {
      const call = { callId: closing.callId, name: closing.name, input: closing.input, custom: closing.custom };
      frames += closing.custom
        ? emit('response.custom_tool_call_input.done', { ...where, input: closing.input })
        : emit('response.function_call_arguments.done', { ...where, arguments: closing.input });
      finished = toolCallItem(closing.id, cutOffByFinish() ? 'incomplete' : 'completed', call);
    }
    done.push(finished);
    return frames + emit('response.output_item.done', { output_index: closing.index, item: finished });
  }

  function write(event: CanonicalEvent): string {
    switch (event.type) {
      case 'message-start':
      case 'usage':
      case 'web-search':
        return '';
      case 'text-delta': {
        if (!event.text) return '';
        const { frames, message } = openMessage();
        message.text += event.text;
        return frames + emit('response.output_text.delta', { item_id: message.id, output_index: message.index, content_index: 0, delta: event.text, logprobs: [] });
      }
      case 'reasoning-delta': {
        if (!event.text && !event.signature && !event.encrypted) return '';
        const { frames, reasoning } = openReasoning(event.text);
        if (event.signature) reasoning.signature = event.signature;
        if (event.encrypted) reasoning.encrypted = event.encrypted;
        return frames + reasoningText(reasoning, event.text);
      }
      case 'tool-call-start': {
        const custom = event.custom === true;
        const callId = event.id || `call_${presentation.responseId}_${event.index}`;
        return open((index) => {
          const id = outputItemId(custom ? 'custom_tool_call' : 'function_call', presentation.responseId, index);
          return {
            next: { kind: 'tool' as const, index, id, toolIndex: event.index, callId, name: event.name, custom, input: '', ended: false },
            added: toolCallItem(id, 'in_progress', { callId, name: event.name, input: '', custom }),
          };
        }).frames;
      }
      case 'tool-call-delta': {
        if (item?.kind !== 'tool' || item.toolIndex !== event.index || item.ended || !event.argumentsDelta) return '';
        item.input += event.argumentsDelta;
        const type = item.custom ? 'response.custom_tool_call_input.delta' : 'response.function_call_arguments.delta';
        return emit(type, { item_id: item.id, output_index: item.index, delta: event.argumentsDelta });
      }
      case 'tool-call-end':
        // Closed by the next item or the finish: an upstream ends the call before it says the cap cut it off.
        if (item?.kind === 'tool' && item.toolIndex === event.index) item.ended = true;
        return '';
      case 'finish':
        finish ??= event.reason;
        return close();
      case 'error':
        return failWith(responsesFailureOf(event.errorType, event.message));
    }
  }

  function failWith(failure: ResponsesFailure): string {
    if (closed) return '';
    // A call received whole is done as it was; only an item the failure cuts off is incomplete.
    const frames = start() + (item?.kind === 'tool' && item.ended ? close() : '');
    closed = true;
    const output = item ? [...done, cutOffItem(item, carriesReasoning)] : done;
    item = undefined;
    const frameText = frames + responsesFailureFrames(failure, sequence, response('failed', output));
    sequence += 2;
    return frameText;
  }

  async function completion(): Promise<string> {
    const frames = start() + close();
    const usage: TokenUsage = await presentation.finalUsage();
    const end = toResponsesStatus(finish);
    const type = end.status === 'completed' ? 'response.completed' : 'response.incomplete';
    const build = (usageShown: Record<string, unknown>) => ({
      type,
      response: responseObject({ id: responseId, createdAt: presentation.created, model, status: end.status, output: done, usage: usageShown, incompleteReason: end.incompleteReason, request: presentation.clientBody }),
      sequence_number: sequence++,
    });
    const data = presentation.injectCost
      ? stringifyWithResponseCost((withCost) => build(withCost(renderResponsesUsage(usage))), presentation.priceUsd(usage))
      : JSON.stringify(build(renderResponsesUsage(usage)));
    return `${frames}event: ${type}\ndata: ${data}\n\n`;
  }

  return {
    push(_upstream, canonical) {
      let frames = '';
      for (const event of canonical) {
        if (closed) break;
        if (event.type === 'message-start' && event.model) model = event.model;
        frames += event.type === 'error' ? write(event) : start() + write(event);
      }
      return frames;
    },
    async end() {
      if (closed) return '';
      closed = true;
      return completion();
    },
    fail: (error) => failWith(responsesFailureOfGatewayError(error)),
  };
}

/** An item a failure cut off, as far as it was sent (it never got its `.done` events): `incomplete`. */
function cutOffItem(open: OpenItem, carriesReasoning: boolean): unknown {
  if (open.kind === 'message') return messageItem(open.id, 'incomplete', open.text);
  if (open.kind === 'reasoning') return reasoningItem(open.id, open.summaryOpen ? open.text : undefined, carriesReasoning ? open : undefined);
  return toolCallItem(open.id, 'incomplete', { callId: open.callId, name: open.name, input: open.input, custom: open.custom });
}
