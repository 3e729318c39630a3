import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../shared/core/errors.ts';
import { countResponsesInputTokensEstimate } from '../../../shared/protocols/openai-responses/responses-input-tokens.ts';
import { countTokens } from '../../../shared/tokenizer/estimate-tokens.ts';

describe('countResponsesInputTokensEstimate', () => {
  it('counts the instructions, the input items and the tool definitions, in OpenAI’s answer shape', async () => {
    const tool = { type: 'function', name: 'lookup', description: 'Looks a person up', parameters: { type: 'object', properties: { name: { type: 'string' } } } };
    const count = await countResponsesInputTokensEstimate({ model: 'm', instructions: 'Be brief.', input: [{ role: 'user', content: [{ type: 'input_text', text: 'Who is Alice?' }] }], tools: [tool] });
    expect(count).toEqual({ object: 'response.input_tokens', input_tokens: await countTokens(['Be brief.', 'Who is Alice?', 'lookup', 'Looks a person up', JSON.stringify(tool.parameters)].join('\n')) });
  });

  it('refuses previous_response_id, whose response only the provider that stored it knows', async () => {
    const refused = await countResponsesInputTokensEstimate({ model: 'm', input: 'x', previous_response_id: 'resp_1' }).catch((thrown: unknown) => thrown);
    expect(refused).toBeInstanceOf(GatewayError);
    expect(refused).toMatchObject({ status: 400, code: 'previous_response_not_supported', param: 'previous_response_id' });
  });
});
