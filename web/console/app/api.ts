import { loadSession } from './session.ts';

/** A refusal of the console API, with its status and code (`owner_only`, `invalid_command`…). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Told when the API says the session is over (401), so the page can ask to sign in again. */
let onSignedOut: (message: string) => void = () => {};
export function whenSignedOut(handler: (message: string) => void): void {
  onSignedOut = handler;
}

/** Calls `api/<path>` with the session's bearer token; JSON in and out. */
export async function api<T>(path: string, options: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await send(path, options);
  return (await response.json()) as T;
}

/**
 * The same call, for answers that are files (the usage CSV). `truncated` is the API's `x-usage-truncated`
 * ("first 10000 rows") when the file holds only part of what was asked for.
 */
export async function apiBlob(path: string): Promise<{ blob: Blob; filename: string; truncated: string | undefined }> {
  const response = await send(path, {});
  const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'download';
  return { blob: await response.blob(), filename, truncated: response.headers.get('x-usage-truncated') ?? undefined };
}

async function send(path: string, { method = 'GET', body }: { method?: string; body?: unknown }): Promise<Response> {
  const session = loadSession();
  if (!session) {
    onSignedOut('Your session has expired: sign in again.');
    throw new ApiError(401, 'not_signed_in', 'Not signed in.');
  }
  const response = await fetch(`api${path}`, {
    method,
    headers: { authorization: `Bearer ${session.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    cache: 'no-store',
  }).catch(() => {
    // fetch rejects only when no answer came (offline, gateway stopped): its "Failed to fetch" says nothing to a person.
    throw new ApiError(0, 'unreachable', 'The console API could not be reached: check the connection (or that the gateway is running), then try again.');
  });
  if (response.ok) return response;
  const answer = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
  const error = new ApiError(response.status, answer.error?.code ?? 'error', answer.error?.message ?? `The request failed (${response.status}).`);
  if (response.status === 401) onSignedOut(error.message);
  throw error;
}
