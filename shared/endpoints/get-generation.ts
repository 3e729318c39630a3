import { configUnavailable, GatewayError } from '../core/errors.ts';
import { stringifyWithExactDecimals } from '../http/exact-decimal-json.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import { describeGeneration } from './describe-generation.ts';
import { admitRequest } from '../pipeline/admit-request.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';

/**
 * GET /v1/generation?id=: the generation record of one of the key's project's requests, by its request id
 * (the `x-generation-id` header) or by the `id` its answer's body carried (OpenRouter's clients look up
 * `completion.id`). Records are written asynchronously, so a record not (yet) found is a 404 that says so,
 * by either id; a record of another project is indistinguishable from a missing one.
 */
export async function handleGetGeneration(request: GatewayRequest, services: GatewayServices): Promise<GatewayResponse> {
  const { config } = await admitRequest(request, services, 'generation');
  const id = request.query.get('id');
  if (!id) {
    throw new GatewayError('invalid_request', 'The query parameter "id" is required: GET /v1/generation?id=<request id, or the id of its answer>.', {
      code: 'missing_id',
      param: 'id',
    });
  }
  let record;
  try {
    record = await services.generations.findGeneration(config.project.projectId, id);
  } catch (error) {
    throw configUnavailable(error);
  }
  if (!record) {
    throw new GatewayError(
      'not_found',
      `Generation "${id}" not found yet: stats are written asynchronously, typically within seconds of the response ending. Retry shortly.`,
      { code: 'generation_not_found', param: 'id' },
    );
  }
  const found = record;
  // The spec's fields at the top level, and OpenRouter's `data` envelope for its clients; costs exact.
  const body = stringifyWithExactDecimals((decimal) => {
    const generation = describeGeneration(found, decimal);
    return { ...generation, data: generation };
  });
  return { status: 200, headers: { 'content-type': 'application/json' }, body };
}
