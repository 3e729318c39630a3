import { GatewayError } from '../../core/errors.ts';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../../core/json-depth.ts';
import { asJsonObject } from '../../core/json-object.ts';
import { parsedJsonBody, type GatewayRequest } from '../../http/gateway-http.ts';
import { formValue, formValues, parseMultipartForm, withoutFormFields, type MultipartForm } from '../../http/multipart-form.ts';
import { ROUTING_ONLY_FIELDS, type RoutableBody } from '../../pipeline/generation-endpoint.ts';

/** The header naming the provider of a pass-through request whose body names no model (`GET /v1/files`). */
export const PASS_THROUGH_PROVIDER_HEADER = 'x-gateway-provider';

/**
 * The client headers a pass-through carries, as they are: the Assistants API's beta header. Not `OpenAI-Organization` or `OpenAI-Project`: the credential
 * is the project's provider key, and so are its organisation and project; a client's would pick another the
 * key can reach (or be refused for not matching it).
 */
const FORWARDED_HEADERS = ['openai-beta'] as const;

/** What a pass-through carries to the provider: a JSON body, a form, other bytes, or nothing. */
export type PassThroughPayload =
  | { kind: 'json'; json: Record<string, unknown> }
  | { kind: 'form'; form: MultipartForm }
  | { kind: 'bytes'; bytes: Uint8Array; contentType: string | undefined }
  | { kind: 'none' };

/**
 * A request to another `/v1/*` route, as the pass-through endpoint reads it: its method, its path below the
 * provider's base URL (query string kept), the headers to forward, and its body. `model` is the body's
 * own (JSON or form), or '' when it names none; routing fields are read from the body and removed from it.
 */
export interface PassThroughRequest extends RoutableBody {
  method: string;
  upstreamPath: string;
  forwardedHeaders: Record<string, string>;
  /** The provider a request without a model goes to (the header), if named. */
  namedProvider: string | undefined;
  payload: PassThroughPayload;
}

export async function parsePassThroughRequest(request: GatewayRequest): Promise<PassThroughRequest> {
  const contentType = request.headers['content-type'];
  const common = {
    method: request.method,
    upstreamPath: upstreamPathOf(request),
    forwardedHeaders: Object.fromEntries(FORWARDED_HEADERS.flatMap((name) => (request.headers[name] ? [[name, request.headers[name] as string]] : []))),
    namedProvider: request.headers[PASS_THROUGH_PROVIDER_HEADER],
  };
  if (request.body.byteLength === 0) return { ...common, model: '', payload: { kind: 'none' } };
  // A JSON object labelled otherwise (text/plain, no type) is read as JSON too: providers read it so, and its
  // model must be allowed and priced like every other, not passed on unseen as bytes. Other bytes that only
  // begin like one (JSON Lines, several objects) stay bytes.
  const declaredJson = contentType !== undefined && /^application\/(json|[\w.+-]*\+json)\b/i.test(contentType);
  const json = declaredJson ? jsonObjectBody(request) : !isForm(contentType) && startsAsJsonObject(request.body) ? jsonObjectBodyIfOne(request) : undefined;
  if (json) {
    const { model, models, route, provider, stream } = json;
    const rest = { ...json };
    for (const field of ROUTING_ONLY_FIELDS) delete rest[field];
    return {
      ...common,
      model: typeof model === 'string' ? model : '',
      ...(Array.isArray(models) ? { models: models.filter((entry): entry is string => typeof entry === 'string') } : {}),
      ...(route === 'fallback' ? { route } : {}),
      ...(provider !== undefined ? { provider } : {}),
      stream: stream === true,
      payload: { kind: 'json', json: rest },
    };
  }
  if (isForm(contentType)) {
    const form = await parseMultipartForm(request.body, contentType);
    const models = formValues(form, 'models');
    return {
      ...common,
      model: formValue(form, 'model') ?? '',
      ...(models.length > 0 ? { models } : {}),
      ...(formValue(form, 'route') === 'fallback' ? { route: 'fallback' as const } : {}),
      stream: formValue(form, 'stream') === 'true',
      payload: { kind: 'form', form: withoutFormFields(form, ROUTING_ONLY_FIELDS) },
    };
  }
  return { ...common, model: '', payload: { kind: 'bytes', bytes: request.body, contentType } };
}

function isForm(contentType: string | undefined): contentType is string {
  return contentType !== undefined && /^multipart\/form-data\b/i.test(contentType);
}

/** Whether the body's first character (after white space) opens a JSON object. */
function startsAsJsonObject(body: Uint8Array): boolean {
  for (const byte of body) {
    if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
    return byte === 0x7b;
  }
  return false;
}

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * The path below the provider's base URL (which ends in `/v1` by convention): the client's path (normalised
 * by the route group) without `/v1`, with its query string. Dot segments are refused, encoded ones and
 * ones behind an encoded slash too: a provider that decodes them would climb above the base URL.
 */
function upstreamPathOf(request: GatewayRequest): string {
  const below = request.path.replace(/^\/v1(?=\/)/, '');
  const segments = below.split('/').flatMap((segment) => {
    try {
      return decodeURIComponent(segment).split('/');
    } catch {
      return [undefined];
    }
  });
  if (segments.some((segment) => segment === '.' || segment === '..' || segment?.includes('\\'))) {
    throw new GatewayError('invalid_request', `The path ${request.path} climbs out of the API: "." and ".." segments are not passed through.`, { code: 'invalid_path' });
  }
  // What a server behind may read otherwise than the gateway does: a path parameter (`..;`, a dot segment to
  // Tomcat), an escape decoded twice (`%252e`), one that is no UTF-8 (`%C0%AE`, `%u002e`), a control character.
  if (segments.some((segment) => segment === undefined || segment.includes(';') || segment.includes('%') || CONTROL_CHARACTER.test(segment))) {
    throw new GatewayError('invalid_request', `The path ${request.path} holds what a provider may read otherwise than the gateway (";", an escape decoded twice or invalid, a control character): it is not passed through.`, {
      code: 'invalid_path',
    });
  }
  const query = request.query.toString();
  return `${below}${query ? `?${query}` : ''}`;
}

/** The body as a JSON object when it is one; undefined when it is not JSON (a body nested too deep is still refused). */
function jsonObjectBodyIfOne(request: GatewayRequest): Record<string, unknown> | undefined {
  try {
    return jsonObjectBody(request);
  } catch (error) {
    if (error instanceof GatewayError && error.code === 'json_too_deep') throw error;
    return undefined;
  }
}

/**
 * The body parsed once for the request (the shared parse refuses text that is not UTF-8 or not JSON), as an
 * object no deeper than the gateway accepts: it is serialised again for the provider, which recursion does.
 */
function jsonObjectBody(request: GatewayRequest): Record<string, unknown> {
  const object = asJsonObject(parsedJsonBody(request).value);
  if (!object) throw new GatewayError('invalid_request', 'The request body must be a JSON object.', { code: 'invalid_json' });
  if (exceedsJsonDepth(object)) {
    throw new GatewayError('invalid_request', `The request body nests deeper than the ${MAX_JSON_DEPTH} levels the gateway accepts.`, { code: 'json_too_deep' });
  }
  return object;
}
