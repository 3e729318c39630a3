/** The base URLs the editor route answers on: `/v1/editor`, and the same with the `/v1` people append. */
const EDITOR_BASES: readonly string[] = ['/v1/editor', '/v1/editor/v1'];

/** What an OpenAI client appends to its base URL for the requests the editor route serves. */
const CLIENT_PATHS = ['/chat/completions', '/models'];

/**
 * The base URL a request path was made from, when it ends in what a client appends (a model's id may hold
 * slashes, so `/models/` starts the appended part wherever it is); undefined when the path does not say.
 */
function clientBaseOf(path: string): string | undefined {
  const model = path.indexOf('/models/');
  if (model >= 0) return path.slice(0, model);
  const appended = CLIENT_PATHS.find((suffix) => path.endsWith(suffix));
  return appended === undefined ? undefined : path.slice(0, -appended.length);
}

/**
 * What the editor route's 404 says about the base URL. A path made from another base URL under /v1/editor
 * (`…/v1/editor/openai/chat/completions`) gets the one to set, and the one the request came with; any other
 * path may well come from the right base URL (a client calling an endpoint the route does not serve), so
 * it gets what the route serves, never the advice to set the base URL it already uses.
 */
export function editorBaseUrlHint(path: string): string {
  const base = clientBaseOf(path);
  if (base !== undefined && !EDITOR_BASES.includes(base)) {
    return ` Set "Override OpenAI Base URL" to the gateway URL followed by /v1/editor (this request came from one ending in ${base}): Cursor adds /chat/completions itself.`;
  }
  return ' The editor route serves only POST /v1/editor/chat/completions and GET /v1/editor/models (and /v1/editor/models/{id}), also under /v1/editor/v1; the gateway serves the other OpenAI endpoints under /v1.';
}
