import { GatewayError } from '../core/errors.ts';
import { findAllowedModel } from '../core/resolve-model.ts';
import { jsonResponse, type GatewayRequest, type GatewayResponse } from '../http/gateway-http.ts';
import { decodePathId } from '../http/path-id.ts';
import { admitRequest } from '../pipeline/admit-request.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { describeModel, describeModelForMessagesClient, isMessagesStyleClient } from './list-models.ts';

/**
 * The list route a model's path is under (`/v1/models`, `/v1/editor/models`, …) and the model id: the rest
 * of the path, decoded, since SDKs send the slug's slash as `%2F` (`openai%2Fgpt-4o-mini`) and people type
 * it as is (`openai/gpt-4o-mini`). No route's prefix holds `/models/`, so its first one ends the prefix.
 */
function readModelPath(path: string): { listPath: string; requested: string } {
  const listEnd = path.indexOf('/models/') + '/models'.length;
  const requested = decodePathId(path.slice(listEnd + 1).replace(/\/+$/, ''), { noun: 'model', code: 'invalid_model', param: 'model' });
  return { listPath: path.slice(0, listEnd), requested };
}

/**
 * GET /v1/models/{id} (the OpenAI and Anthropic SDKs' `models.retrieve`), and the same under the editor's
 * base URL: the allowlist entry the id names, by slug, alias or bare id as in requests, in the same shape
 * as in the list beside it; 404 when there is none.
 */
export async function handleGetModel(request: GatewayRequest, services: GatewayServices): Promise<GatewayResponse> {
  const { listPath, requested } = readModelPath(request.path);
  const { config, orgRates } = await admitRequest(request, services, 'models');
  let entry;
  try {
    entry = findAllowedModel(requested, config.models);
  } catch (error) {
    if (!(error instanceof GatewayError) || error.code !== 'model_not_allowed') throw error;
    throw new GatewayError('not_found', `The model "${requested}" is not on this project's allowlist. GET ${listPath} lists the models it may use.`, {
      code: 'model_not_found',
      param: 'model',
    });
  }
  const describe = isMessagesStyleClient(request) ? describeModelForMessagesClient : describeModel;
  return jsonResponse(200, describe(entry, config, orgRates));
}
