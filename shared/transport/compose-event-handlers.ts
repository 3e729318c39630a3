import type { SseEventHandler } from './sse-relay.ts';

/**
 * Chains a translation (one upstream event → frames of the client's protocol) into a handler of the
 * client's protocol, so a translated stream is metered by the very same code as a native one.
 */
export function translateInto(translate: { push(event: string): string[]; end(): string[] }, next: SseEventHandler): SseEventHandler {
  const forward = async (frames: string[]) => {
    let text = '';
    for (const frame of frames) text += await next.onEvent(frame);
    return text;
  };
  return {
    onEvent: (event) => forward(translate.push(event)),
    onEnd: async () => (await forward(translate.end())) + (await next.onEnd()),
  };
}
