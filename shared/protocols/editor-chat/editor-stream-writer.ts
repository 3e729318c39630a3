import type { CanonicalEvent, MessageStartEvent } from '../../canonical/canonical-events.ts';
import type { GatewayError } from '../../core/errors.ts';
import { createChatChunkWriter } from '../openai-chat/chat-chunk-writer.ts';
import { chatAnswerId } from '../openai-chat/chat-response-writer.ts';
import type { ClientStream, Presentation } from '../wire-protocol.ts';
import { heldUpstreamFailure, inBandErrorText } from './editor-errors.ts';
import { THINK_CLOSE, THINK_OPEN } from './editor-think-block.ts';

export type EditorStream = ClientStream & { fail(error: GatewayError): Promise<string>; heldFailure(): GatewayError | undefined; statusCommitted(): void };

/**
 * Canonical events as the `chat.completion.chunk` stream the editor parses (OpenAI's chunks, written by the
 * chat chunk writer), with what the editor needs on top:
 * - nothing is written for the upstream's opening (its message start), so the status waits for the first
 *   content; a failure before it is held and answered with an HTTP status the editor shows (heldFailure);
 * - every tool call is a `function` call, a custom tool's (ApplyPatch) too, its free text as the raw
 *   arguments: the editor reads no other kind of call;
 * - reasoning is text inside `<think>` tags before the answer (the editor reads no reasoning field);
 * - a failure after the first content is text of its own, then a `stop` finish, the usage chunk when
 *   asked for (the usage the request is metered with, the upstream's or the estimate of what it generated,
 *   whether the upstream told the failure or broke off), and `[DONE]`: the editor shows what was answered
 *   and why it stopped. So is a failure after a heartbeat sent the status before any content
 *   (statusCommitted): no status can carry it any more.
 */
export function createEditorStreamWriter(presentation: Presentation): EditorStream {
  const includeUsage = presentation.showUsage || presentation.injectCost;
  const chunks = createChatChunkWriter({
    model: presentation.model,
    created: presentation.created,
    fallbackId: chatAnswerId(undefined, presentation.responseId),
    includeUsage,
    ...(presentation.injectCost ? { priceUsd: presentation.priceUsd } : {}),
  });
  let heldStart: MessageStartEvent | undefined;
  let opened = false;
  let thinking = false;
  let held: GatewayError | undefined;
  let failed = false;
  let committed = false;

  function open(): string[] {
    if (opened) return [];
    opened = true;
    return chunks.push(heldStart ?? { type: 'message-start', id: '', model: '' });
  }

  /** Opens the answer, closing the think block first when the next content is not reasoning. */
  function before(event: CanonicalEvent): string[] {
    const frames = open();
    if (thinking && event.type !== 'reasoning-delta') {
      thinking = false;
      frames.push(...chunks.push({ type: 'text-delta', text: THINK_CLOSE }));
    }
    return frames;
  }

  /** The last chunks: the usage chunk when asked for (the request's final usage), then `[DONE]`. */
  async function close(): Promise<string[]> {
    return chunks.end(includeUsage ? await presentation.finalUsage() : undefined);
  }

  function failInBand(message: string): string[] {
    failed = true;
    return [...before({ type: 'finish', reason: 'error' }), ...chunks.push({ type: 'text-delta', text: inBandErrorText(message) }), ...chunks.push({ type: 'finish', reason: 'stop' })];
  }

  function write(event: CanonicalEvent): string[] {
    switch (event.type) {
      case 'message-start':
        if (opened) return chunks.push(event);
        heldStart = event;
        return [];
      case 'usage':
        return chunks.push(event);
      case 'web-search':
        return [];
      case 'error':
        if (opened || committed) return failInBand(event.message);
        held = heldUpstreamFailure(event.errorType, event.message);
        return [];
      case 'reasoning-delta': {
        if (!event.text) return [];
        const frames = before(event);
        if (!thinking) {
          thinking = true;
          frames.push(...chunks.push({ type: 'text-delta', text: THINK_OPEN }));
        }
        return [...frames, ...chunks.push({ type: 'text-delta', text: event.text })];
      }
      case 'tool-call-start':
        return [...before(event), ...chunks.push({ type: 'tool-call-start', index: event.index, id: event.id, name: event.name })];
      case 'text-delta':
      case 'tool-call-delta':
      case 'tool-call-end':
      case 'finish':
        return [...before(event), ...chunks.push(event)];
    }
  }

  return {
    push(_event, canonical) {
      if (held || failed) return '';
      return canonical.flatMap(write).join('');
    },
    async end() {
      // A failure held just before the status went out: told in-band, as nothing else can tell it now.
      if (held) return committed && !failed ? [...failInBand(held.publicMessage), ...(await close())].join('') : '';
      return [...before({ type: 'finish', reason: 'stop' }), ...(await close())].join('');
    },
    async fail(error) {
      if (held && !committed) return '';
      if (held && !failed) return [...failInBand(held.publicMessage), ...(await close())].join('');
      if (!opened && !committed) {
        held = error;
        return '';
      }
      if (failed) return (await close()).join('');
      return [...failInBand(error.publicMessage), ...(await close())].join('');
    },
    heldFailure: () => held,
    statusCommitted: () => {
      committed = true;
    },
  };
}
