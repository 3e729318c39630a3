import { GatewayError } from '../../core/errors.ts';
import { countTokens } from '../../tokenizer/estimate-tokens.ts';
import { responsesPromptText, type ResponsesRequest } from './responses-request.ts';

/** The answer of `POST /responses/input_tokens`, as OpenAI sends it. */
export interface ResponsesInputTokens {
  object: 'response.input_tokens';
  input_tokens: number;
}

/**
 * An estimate of a Responses request's input tokens for a model whose provider does not serve the
 * Responses API, counted with the gateway's tokenizer, in OpenAI's answer shape (the caller says in a
 * header that it is an estimate). A previous response is known only to the provider that stored it: a
 * count that cannot include it is refused, as the translated request itself would be.
 */
export async function countResponsesInputTokensEstimate(request: ResponsesRequest): Promise<ResponsesInputTokens> {
  if (request.previous_response_id) {
    throw new GatewayError(
      'invalid_request',
      'previous_response_id needs the provider that stored that response, and this model is reached through translation, where the gateway keeps no conversation state: its tokens cannot be counted. Send the whole conversation in "input" instead.',
      { code: 'previous_response_not_supported', param: 'previous_response_id' },
    );
  }
  return { object: 'response.input_tokens', input_tokens: await countTokens(responsesPromptText(request)) };
}
