/** How much of a text error body a client sees: enough for "502 Bad Gateway nginx", never a whole page. */
export const MAX_EXCERPT_LENGTH = 200;

/** What a page shows no reader: its head (styles, scripts, meta), scripts, styles and comments. */
const UNSHOWN_PARTS = /<!--[\s\S]*?-->|<(head|script|style|noscript)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const TITLE = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i;
const TAG = /<[^>]*>/g;
const ENTITY = /&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi;
const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * The words of an error body that is no JSON (a proxy's HTML page, a load balancer's plain text), as a
 * client may be shown them: an HTML page's visible text (its title when its body has none), whitespace
 * collapsed, cut to MAX_EXCERPT_LENGTH characters. Text that is not HTML keeps its angle brackets.
 */
export function errorTextExcerpt(text: string, contentType: string | null): string {
  const words = isHtml(text, contentType) ? visibleText(text) : text;
  const collapsed = words.replace(/\s+/g, ' ').trim();
  if (collapsed.length <= MAX_EXCERPT_LENGTH) return collapsed;
  return `${collapsed.slice(0, MAX_EXCERPT_LENGTH - 1).trimEnd()}…`;
}

function isHtml(text: string, contentType: string | null): boolean {
  return /html|xml/i.test(contentType ?? '') || /^\s*<(!doctype|html|\?xml|head|body)\b/i.test(text);
}

function visibleText(html: string): string {
  const body = decodeEntities(html.replace(UNSHOWN_PARTS, ' ').replace(TAG, ' '));
  if (body.trim()) return body;
  return decodeEntities(TITLE.exec(html)?.[1] ?? '');
}

function decodeEntities(text: string): string {
  return text.replace(ENTITY, (entity, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith('#x')) return codePoint(Number.parseInt(lower.slice(2), 16), entity);
    if (lower.startsWith('#')) return codePoint(Number.parseInt(lower.slice(1), 10), entity);
    return NAMED_ENTITIES[lower] ?? entity;
  });
}

function codePoint(value: number, entity: string): string {
  return Number.isInteger(value) && value > 0 && value <= 0x10ffff ? String.fromCodePoint(value) : entity;
}
