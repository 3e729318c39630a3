/** How the bridge answers a POST: one JSON body, or an SSE stream (which can carry progress notifications). */
export type AnswerFormat = 'json' | 'sse';

/** The quality the Accept header gives a media type: its exact range, else `type/*`, else `*\/*`, else 0. */
function qualityOf(accept: string, mediaType: string): number {
  const [type] = mediaType.split('/');
  let best: { specificity: number; quality: number } | undefined;
  for (const range of accept.split(',')) {
    const [name = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const specificity = name === mediaType ? 3 : name === `${type}/*` ? 2 : name === '*/*' ? 1 : 0;
    if (specificity === 0 || (best && best.specificity >= specificity)) continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    best = { specificity, quality: Number.isFinite(quality) ? quality : 0 };
  }
  return best?.quality ?? 0;
}

/**
 * The answer the client's Accept asks for. MCP clients list both and the Streamable HTTP transport lets
 * the server choose: the bridge streams (SSE) unless the client ranks JSON higher or accepts JSON only.
 * Undefined when it accepts neither (406).
 */
export function chooseAnswerFormat(accept: string | undefined): AnswerFormat | undefined {
  const json = qualityOf(accept ?? '*/*', 'application/json');
  const sse = qualityOf(accept ?? '*/*', 'text/event-stream');
  if (json <= 0 && sse <= 0) return undefined;
  return sse >= json ? 'sse' : 'json';
}
