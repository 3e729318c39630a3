import * as z from 'zod';
import { GatewayError } from '../../core/errors.ts';
import type { BilledUnits } from '../../core/billed-units.ts';
import { parsedJsonBody, type GatewayRequest } from '../../http/gateway-http.ts';
import { formValue, type MultipartForm } from '../../http/multipart-form.ts';
import type { RoutableBody } from '../../pipeline/generation-endpoint.ts';
import { withoutGatewayFields } from '../../pipeline/generation-endpoint.ts';
import { parseFormRequest } from '../form-request.ts';
import { parseModelRequest } from '../parse-model-request.ts';
import { gatewayFieldsShape } from '../routing-fields.ts';

/** The longest video OpenAI's API makes (`seconds` is "4", "8" or "12"): the worst case when a request names none. */
export const MAX_VIDEO_SECONDS = 12;

const videoJsonSchema = z.looseObject({
  model: z.string().min(1),
  prompt: z.string().min(1),
  seconds: z.union([z.string(), z.number()]).nullish(),
  ...gatewayFieldsShape,
});

/**
 * A video to create, sent as JSON or as a form (the SDK's way, with an optional `input_reference` image):
 * the gateway-only fields, and the client's body (without them) as it was sent.
 */
export interface VideoCreateRequest extends RoutableBody {
  sent: { kind: 'json'; json: Record<string, unknown> } | { kind: 'form'; form: MultipartForm };
}

export async function parseVideoCreateRequest(request: GatewayRequest): Promise<VideoCreateRequest> {
  if (/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '')) {
    const { form, ...routing } = await parseFormRequest(request, { files: [] });
    if (!formValue(form, 'prompt')) throw new GatewayError('invalid_request', 'The form field "prompt" is required.', { code: 'invalid_request_body', param: 'prompt' });
    return { ...routing, sent: { kind: 'form', form } };
  }
  const json = parseModelRequest(parsedJsonBody(request), videoJsonSchema);
  return {
    model: json.model,
    ...(json.models ? { models: json.models } : {}),
    ...(json.route ? { route: json.route } : {}),
    provider: json.provider,
    ...(json.usage ? { usage: json.usage } : {}),
    sent: { kind: 'json', json: withoutGatewayFields(json) },
  };
}

function field(request: VideoCreateRequest, name: string): string | undefined {
  const value = request.sent.kind === 'form' ? formValue(request.sent.form, name) : request.sent.json[name];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

export function videoPromptText(request: VideoCreateRequest): string {
  return field(request, 'prompt') ?? '';
}

/** The seconds a new video can be billed once made: those asked for, else the longest there is. */
export function videoSecondsBound(request: VideoCreateRequest): BilledUnits {
  const asked = Number(field(request, 'seconds'));
  return { videoSeconds: Number.isFinite(asked) && asked > 0 ? Math.ceil(asked) : MAX_VIDEO_SECONDS };
}
