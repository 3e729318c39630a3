import type { ServerResponse } from 'node:http';
import { sendJson, sseEvents, type ReceivedRequest } from './fake-openai-upstream.ts';
import { readFixture } from './fixtures.ts';

/**
 * Answers like Anthropic's Messages API from recorded real responses: a stream when the request asks for
 * one, the recorded JSON otherwise; count_tokens from its recorded answer.
 */
export function recordedAnthropicAnswer(options: { stream?: string; json?: string } = {}) {
  return (request: ReceivedRequest, response: ServerResponse): void => {
    if (request.path.startsWith('/v1/messages/count_tokens')) return sendJson(response, 200, readFixture('anthropic/count-tokens.json'));
    if (request.body.stream === true) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const events = sseEvents(readFixture(options.stream ?? 'anthropic/messages-stream-text.sse'));
      let index = 0;
      const next = () => {
        const event = events[index++];
        if (event === undefined) {
          response.end();
          return;
        }
        response.write(event);
        setTimeout(next, 1);
      };
      return next();
    }
    return sendJson(response, 200, readFixture(options.json ?? 'anthropic/messages-nonstream-text.json'));
  };
}

/**
 * Answers like a Claude model that takes adaptive thinking only (Claude Opus 4.7 and later): a thinking
 * budget gets Anthropic's recorded 400, any other request the given answer.
 */
export function refusingThinkingBudget(answer: (request: ReceivedRequest, response: ServerResponse) => void) {
  return (request: ReceivedRequest, response: ServerResponse): void => {
    const thinking = request.body.thinking as { type?: string } | undefined;
    if (thinking?.type === 'enabled') return sendJson(response, 400, readFixture('anthropic/messages-error-400-thinking-enabled-unsupported.json'));
    return answer(request, response);
  };
}
