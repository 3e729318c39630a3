import { GatewayError } from '../core/errors.ts';
import { parseJsonObject } from '../core/json-object.ts';
import type { GatewayRequest } from '../http/gateway-http.ts';
import { formFiles, formValue, formValues, parseMultipartForm, serializeMultipartForm, withFormValue, withoutFormFields, type MultipartForm } from '../http/multipart-form.ts';
import { ROUTING_ONLY_FIELDS, type RoutableBody } from '../pipeline/generation-endpoint.ts';
import type { UpstreamRequest } from './bridge.ts';

/**
 * An upload (multipart/form-data) as a generation request: the routing fields read from its text parts
 * (`model`; `models` repeated or as `models[]`; `route`; `provider` as JSON text; `stream` as "true"), and
 * the form itself without the routing-only parts, for the upstream.
 */
export interface FormRequest extends RoutableBody {
  form: MultipartForm;
}

export async function parseFormRequest(request: GatewayRequest, required: { files: readonly string[] }): Promise<FormRequest> {
  const form = await parseMultipartForm(request.body, request.headers['content-type']);
  const model = formValue(form, 'model');
  if (!model) throw new GatewayError('invalid_request', 'The request must name a model: the form field "model" is required.', { code: 'missing_model', param: 'model' });
  for (const name of required.files) {
    if (formFiles(form, name).length === 0) {
      throw new GatewayError('invalid_request', `The form has no file part "${name}": upload the file under that name.`, { code: 'missing_file', param: name });
    }
  }
  const route = formValue(form, 'route');
  if (route !== undefined && route !== 'fallback') {
    throw new GatewayError('invalid_request', 'Invalid field "route": the only route is "fallback".', { code: 'invalid_request_body', param: 'route' });
  }
  const provider = formValue(form, 'provider');
  const preferences = provider === undefined ? undefined : parseJsonObject(provider);
  if (provider !== undefined && !preferences) {
    throw new GatewayError('invalid_request', 'Invalid field "provider": it must be a JSON object.', { code: 'invalid_request_body', param: 'provider' });
  }
  const models = formValues(form, 'models');
  return {
    model,
    ...(models.length > 0 ? { models } : {}),
    ...(route ? { route } : {}),
    ...(preferences ? { provider: preferences } : {}),
    stream: formValue(form, 'stream') === 'true',
    form: withoutFormFields(form, ROUTING_ONLY_FIELDS),
  };
}

/** The upload for one upstream: the client's form with the provider's model id, under a new boundary. */
export function formUpstreamRequest(path: string, body: Record<string, unknown>, upstreamModel: string): UpstreamRequest {
  const { form } = body as FormRequest;
  const serialized = serializeMultipartForm(withFormValue(form, 'model', upstreamModel));
  const accept = body.stream === true ? 'text/event-stream' : '*/*';
  return { path, headers: { 'content-type': serialized.contentType, accept }, body: serialized.body };
}
