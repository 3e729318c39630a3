/**
 * The first `maxLength` UTF-16 units of a text, one fewer when the cut would split a surrogate pair: a lone
 * half of an emoji is not valid Unicode, and JSON readers (jq, Parquet's UTF-8) refuse or replace it.
 */
export function textPrefix(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}
