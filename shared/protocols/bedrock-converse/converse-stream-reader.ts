import type { CanonicalEvent } from '../../canonical/canonical-events.ts';
import type { CanonicalRequest } from '../../canonical/canonical-request.ts';
import { customToolNames, unwrapCustomToolInput } from '../../canonical/custom-tool-input.ts';
import { parseProviderPayload, readEventData } from '../../canonical/read-payload.ts';
import { asJsonObject } from '../../core/json-object.ts';
import { awsErrorName } from '../../transport/aws-error-name.ts';
import { canonicalTypeOf } from '../bedrock-runtime/bedrock-errors.ts';
import type { StreamReader } from '../wire-protocol.ts';
import { converseStopSequence, mapConverseStopReason } from './converse-stop-reason.ts';
import { readConverseUsage } from './converse-usage.ts';
import { converseStreamEventSchema, type ConverseStreamEvent } from './converse-wire-types.ts';

type OpenTool = { toolIndex: number; sawArguments: boolean; custom: boolean; json: string };

/**
 * Reads ConverseStream events (`{messageStart}`, `{contentBlockDelta}`, …, `{metadata}`) as canonical
 * events. Tool uses are numbered densely among themselves; one whose input never streamed (a tool without
 * parameters) gets `{}`. A call of a custom tool of the translated `request` comes back as a custom tool
 * call, its text taken out of the `input` property when the block stops. An exception
 * (`{throttlingException: {message}}`) is the stream's error, after which nothing more is read. A stream
 * that ends before its `messageStop` (and not on an exception) was cut off (`cutOff`), however cleanly the
 * connection closed: the answer must not pass for complete.
 */
export function createConverseStreamReader(request?: CanonicalRequest): StreamReader {
  const customTools = customToolNames(request);
  const tools = new Map<number, OpenTool>();
  let nextToolIndex = 0;
  let started = false;
  let failed = false;
  /** The `messageStop` came: the answer ended as Converse ends one (its usage may still follow). */
  let ended = false;

  function readDelta(delta: NonNullable<ConverseStreamEvent['contentBlockDelta']>): CanonicalEvent[] {
    const index = delta.contentBlockIndex ?? 0;
    const { text, toolUse, reasoningContent } = delta.delta ?? {};
    if (text) return [{ type: 'text-delta', index, text }];
    if (reasoningContent?.text) return [{ type: 'reasoning-delta', text: reasoningContent.text }];
    if (reasoningContent?.signature) return [{ type: 'reasoning-delta', text: '', signature: reasoningContent.signature }];
    const tool = tools.get(index);
    if (!tool || !toolUse?.input) return [];
    tool.sawArguments = true;
    if (tool.custom) {
      tool.json += toolUse.input;
      return [];
    }
    return [{ type: 'tool-call-delta', index: tool.toolIndex, argumentsDelta: toolUse.input }];
  }

  function stopBlock(index: number): CanonicalEvent[] {
    const tool = tools.get(index);
    if (!tool) return [];
    tools.delete(index);
    const end: CanonicalEvent = { type: 'tool-call-end', index: tool.toolIndex };
    const text = tool.custom ? unwrapCustomToolInput(tool.json || '{}') : tool.sawArguments ? '' : '{}';
    return text ? [{ type: 'tool-call-delta', index: tool.toolIndex, argumentsDelta: text }, end] : [end];
  }

  function read(event: ConverseStreamEvent): CanonicalEvent[] {
    if (event.messageStart) return [{ type: 'message-start', id: '', model: '' }];
    const toolUse = event.contentBlockStart?.start?.toolUse;
    if (toolUse) {
      const custom = customTools.has(toolUse.name ?? '');
      const toolIndex = nextToolIndex++;
      tools.set(event.contentBlockStart?.contentBlockIndex ?? 0, { toolIndex, sawArguments: false, custom, json: '' });
      return [{ type: 'tool-call-start', index: toolIndex, id: toolUse.toolUseId ?? '', name: toolUse.name ?? '', ...(custom ? { custom } : {}) }];
    }
    if (event.contentBlockDelta) return readDelta(event.contentBlockDelta);
    if (event.contentBlockStop) return stopBlock(event.contentBlockStop.contentBlockIndex ?? 0);
    if (event.messageStop) {
      ended = true;
      const raw = event.messageStop.stopReason;
      const stopSequence = converseStopSequence(raw, request);
      return [{ type: 'finish', reason: mapConverseStopReason(raw), ...(raw ? { raw } : {}), ...(stopSequence !== undefined ? { stopSequence } : {}) }];
    }
    const usage = readConverseUsage(event.metadata?.usage);
    return usage ? [{ type: 'usage', usage }] : [];
  }

  return {
    push(data) {
      if (failed) return [];
      const exception = readException(data);
      if (exception) {
        failed = true;
        return [exception];
      }
      const event = parseProviderPayload(converseStreamEventSchema, data);
      if (!event) return [];
      const events = read(event);
      const first = events[0]?.type;
      if (!started && first !== undefined && first !== 'message-start') events.unshift({ type: 'message-start', id: '', model: '' });
      if (events.length > 0) started = true;
      return events;
    },
    cutOff: () => !ended && !failed,
  };
}

/** An exception event (`{modelStreamErrorException: {message}}`) as the canonical error, else undefined. */
function readException(data: unknown): CanonicalEvent | undefined {
  const event = asJsonObject(readEventData(data));
  const key = event ? Object.keys(event).find((name) => name.endsWith('Exception')) : undefined;
  if (!event || !key) return undefined;
  const name = awsErrorName(key);
  const message = asJsonObject(event[key])?.message;
  return { type: 'error', errorType: canonicalTypeOf(name), message: typeof message === 'string' && message ? message : `Bedrock ended the stream with ${name}.` };
}
