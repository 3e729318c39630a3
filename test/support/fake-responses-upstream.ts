import type { ServerResponse } from 'node:http';
import { responsesFixtureBody } from '../canonical/support/sse-replay.ts';
import { sendJson, sendSse, sseEvents, type ReceivedRequest } from './fake-openai-upstream.ts';
import { readFixture } from './fixtures.ts';

/**
 * Answers like OpenAI's Responses API from recorded real responses: `POST /responses` with the recorded
 * stream when the request asks for one, the recorded JSON otherwise; the stored-response operations on the
 * ids of those recordings (retrieve answers the recorded JSON; delete, cancel and input items answer in the
 * shapes of OpenAI's API reference); any other id is OpenAI's 404.
 */
export function recordedResponsesAnswer(options: { stream?: string; json?: string } = {}) {
  const json = readFixture(`openai-responses/${options.json ?? 'responses-nonstream-text.json'}`);
  const stream = responsesFixtureBody(options.stream ?? 'responses-stream-text.sse');
  const knownIds = new Set([idOf(json), ...[...stream.matchAll(/"id":"(resp_[^"]+)"/g)].map((match) => match[1])]);
  return (request: ReceivedRequest, response: ServerResponse): void | Promise<void> => {
    if (request.method === 'POST' && request.path === '/v1/responses') {
      return request.body.stream === true ? sendSse(response, sseEvents(stream), 1) : sendJson(response, 200, json);
    }
    const [, id = '', operation = ''] = /^\/v1\/responses\/([^/?]+)\/?([^?]*)/.exec(request.path) ?? [];
    if (!knownIds.has(id)) return sendJson(response, 404, { error: { message: `Response with id '${id}' not found.`, type: 'invalid_request_error', param: null, code: null } });
    if (request.method === 'DELETE') return sendJson(response, 200, { id, object: 'response', deleted: true });
    if (operation === 'cancel') return sendJson(response, 200, { ...(JSON.parse(json) as Record<string, unknown>), id, status: 'cancelled' });
    if (operation === 'input_items') {
      const item = { id: 'msg_input_1', type: 'message', role: 'user', status: 'completed', content: [{ type: 'input_text', text: 'Reply with exactly: pong' }] };
      return sendJson(response, 200, { object: 'list', data: [item], first_id: item.id, last_id: item.id, has_more: false });
    }
    return sendJson(response, 200, { ...(JSON.parse(json) as Record<string, unknown>), id });
  };
}

function idOf(json: string): string {
  return (JSON.parse(json) as { id: string }).id;
}
