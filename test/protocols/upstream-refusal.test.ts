import { describe, expect, it } from 'vitest';
import { anthropicMessagesProtocol } from '../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { openAiChatProtocol } from '../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { openAiRefusals } from '../../shared/protocols/openai-chat/openai-errors.ts';
import { relayUpstreamRefusal } from '../../shared/protocols/upstream-refusal.ts';
import type { GatewayResponse } from '../../shared/http/gateway-http.ts';
import type { UpstreamErrorAnswer } from '../../shared/transport/upstream-errors.ts';

/** An answer as readUpstreamErrorAnswer leaves it: a body of text only as its excerpt. */
const answer = (status: number, body: string, contentType = 'text/html'): UpstreamErrorAnswer => ({ status, retryAfter: null, contentType, body });

const jsonOf = (body: GatewayResponse['body']) => JSON.parse(body as string) as unknown;

describe('relayUpstreamRefusal', () => {
  it("answers a body of text in OpenAI's error format, with the upstream's status and a type from it", () => {
    const relayed = relayUpstreamRefusal(openAiRefusals, answer(404, '404 Not Found nginx'));
    expect(relayed.status).toBe(404);
    expect(relayed.headers['content-type']).toBe('application/json');
    expect(jsonOf(relayed.body)).toEqual({ error: { message: '404 Not Found nginx', type: 'not_found_error', code: null, param: null } });
  });

  it("answers a body of text in Anthropic's error format to a messages client", () => {
    const relayed = relayUpstreamRefusal(anthropicMessagesProtocol, answer(400, '400 Bad Request nginx'));
    expect(relayed.status).toBe(400);
    expect(jsonOf(relayed.body)).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: '400 Bad Request nginx' } });
  });

  it('keeps the rule of the client protocol for the status: a 5xx is 502 to a messages client', () => {
    const relayed = relayUpstreamRefusal(anthropicMessagesProtocol, answer(503, '503 Service Temporarily Unavailable nginx'));
    expect(relayed.status).toBe(502);
    expect(jsonOf(relayed.body)).toEqual({ type: 'error', error: { type: 'overloaded_error', message: '503 Service Temporarily Unavailable nginx' } });
  });

  it('says the status when the body was empty', () => {
    const relayed = relayUpstreamRefusal(openAiRefusals, answer(413, '', 'text/plain'));
    expect(jsonOf(relayed.body)).toEqual({ error: { message: 'The provider answered HTTP 413 without a message.', type: 'invalid_request_error', code: null, param: null } });
  });

  it('answers a body of text in the client protocol even when the upstream speaks another (translation)', () => {
    const relayed = relayUpstreamRefusal(anthropicMessagesProtocol, answer(429, 'Too Many Requests', 'text/plain'), (read) => openAiChatProtocol.readErrorBody(read));
    expect(relayed.status).toBe(429);
    expect(jsonOf(relayed.body)).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: 'Too Many Requests' } });
  });

  it("relays a JSON error of the client's own protocol as sent, and translates one of another", () => {
    const openAi = '{"error":{"message":"Unsupported parameter: \'seed\'","type":"invalid_request_error","param":"seed","code":"unsupported_parameter"}}';
    expect(relayUpstreamRefusal(openAiRefusals, answer(400, openAi, 'application/json')).body).toBe(openAi);
    const translated = relayUpstreamRefusal(anthropicMessagesProtocol, answer(400, openAi, 'application/json'), (read) => openAiChatProtocol.readErrorBody(read));
    expect(jsonOf(translated.body)).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: "Unsupported parameter: 'seed'" } });
  });
});
