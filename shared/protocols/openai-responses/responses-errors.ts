import type { CanonicalErrorType } from '../../canonical/canonical-events.ts';
import type { GatewayError } from '../../core/errors.ts';
import { mapChatErrorType, openAiErrorBody, toChatErrorType } from '../openai-chat/openai-errors.ts';
import { responsesEventFrame } from './responses-event-frame.ts';

/** A failure inside a Responses stream, in the protocol's words: OpenAI's error type and code, and the message. */
export interface ResponsesFailure {
  type: string;
  code: string;
  message: string;
}

/**
 * The codes OpenAI's Responses streams give the failures a client acts on (Codex waits and retries an
 * overloaded server or a rate limit, and stops on a quota): the type otherwise.
 */
const RESPONSES_FAILURE_CODES: Partial<Record<CanonicalErrorType, string>> = {
  overloaded: 'server_is_overloaded',
  'rate-limit': 'rate_limit_exceeded',
  billing: 'insufficient_quota',
};

/** A canonical error (an upstream's in-band failure) as a Responses stream failure. */
export function responsesFailureOf(errorType: CanonicalErrorType, message: string): ResponsesFailure {
  const type = toChatErrorType(errorType);
  return { type, code: RESPONSES_FAILURE_CODES[errorType] ?? type, message };
}

/** A gateway error after the first streamed byte (an upstream that broke off) as a Responses stream failure. */
export function responsesFailureOfGatewayError(error: GatewayError): ResponsesFailure {
  const { type, code, message } = openAiErrorBody(error).error;
  return { type, code, message };
}

/** What a Responses error (an `error` event, or a failed response's `error`) says, in canonical words. */
export function mapResponsesErrorType(type: string | null | undefined, code: string | null | undefined): CanonicalErrorType {
  return mapChatErrorType(type, code);
}

/**
 * The `error` event OpenAI sends when a stream fails (its API reference's flat fields, which the official
 * SDKs turn into an APIError), then the `response.failed` event that closes the response (what Codex reads).
 */
export function responsesFailureFrames(failure: ResponsesFailure, sequence: number, failedResponse: Record<string, unknown>): string {
  const error = responsesEventFrame('error', { code: failure.code, message: failure.message, param: null, sequence_number: sequence });
  const failed = responsesEventFrame('response.failed', {
    response: { ...failedResponse, status: 'failed', error: { code: failure.code, message: failure.message } },
    sequence_number: sequence + 1,
  });
  return error + failed;
}
