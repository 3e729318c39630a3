import { textPrefix } from '../../core/text-prefix.ts';

/** One change prompt compression made: the text before and after, for counting the tokens it saved. */
export interface TextCompaction {
  before: string;
  after: string;
}

/**
 * The longest an MCP server's use instructions stay. The editor lists every MCP server in its system
 * prompt with the server's own instructions (often thousands of characters each, on every turn); the
 * server's name and folder stay whole, so the model still finds its tools through `CallMcpTool`.
 */
export const MCP_INSTRUCTIONS_MAX_CHARS = 300;
/** The longest a legacy `mcp_*` tool's description stays (older editor builds exposed each MCP tool as a tool). */
export const MCP_TOOL_DESCRIPTION_MAX_CHARS = 300;

const SHORTENED_MARK = ' […]';

/** What the user wrote: never changed (the editor marks each turn's question with these tags). */
const PROTECTED_REGION = /<(user_query|most_important_user_query)>[\s\S]*?<\/\1>/g;
/** An MCP server's `serverUseInstructions` attribute, in the tag that opens the server's entry. */
const SERVER_INSTRUCTIONS = /(<mcp_file_system_server\b[^<]*?\sserverUseInstructions=)(["'])([\s\S]*?)\2/g;

/**
 * Shortens a text to at most `max` characters, at a word boundary when one is near, never inside an XML
 * entity, marked as shortened. A pure function of its input: the same text always gives the same bytes,
 * so the upstream's prompt cache, which matches prefixes, keeps hitting turn after turn.
 */
export function shortenText(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = textPrefix(text, max - SHORTENED_MARK.length);
  const lastSpace = cut.search(/\s\S*$/);
  if (lastSpace > cut.length / 2) cut = cut.slice(0, lastSpace);
  cut = cut.replace(/&[#0-9A-Za-z]*$/, '');
  return `${cut.trimEnd()}${SHORTENED_MARK}`;
}

/**
 * Compacts the MCP blocks of one prompt text: each server's use instructions are shortened; the servers'
 * names and folders, the rest of the text and every `<user_query>` stay byte for byte. The changes made
 * are added to `compaction`.
 */
export function compactPromptText(text: string, compaction: TextCompaction[]): string {
  if (!text.includes('serverUseInstructions=')) return text;
  let compacted = '';
  let from = 0;
  for (const region of text.matchAll(PROTECTED_REGION)) {
    compacted += compactMcpBlocks(text.slice(from, region.index), compaction) + region[0];
    from = region.index + region[0].length;
  }
  return compacted + compactMcpBlocks(text.slice(from), compaction);
}

function compactMcpBlocks(text: string, compaction: TextCompaction[]): string {
  return text.replace(SERVER_INSTRUCTIONS, (whole, opening: string, quote: string, instructions: string) => {
    const shortened = shortenText(instructions, MCP_INSTRUCTIONS_MAX_CHARS);
    if (shortened === instructions) return whole;
    compaction.push({ before: instructions, after: shortened });
    return `${opening}${quote}${shortened}${quote}`;
  });
}

/** A legacy MCP tool's description, shortened (the tool's name and parameters stay whole). */
export function compactToolDescription(name: string, description: string, compaction: TextCompaction[]): string {
  if (!name.startsWith('mcp_')) return description;
  const shortened = shortenText(description, MCP_TOOL_DESCRIPTION_MAX_CHARS);
  if (shortened !== description) compaction.push({ before: description, after: shortened });
  return shortened;
}
