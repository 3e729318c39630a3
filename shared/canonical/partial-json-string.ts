const ESCAPED: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * The text of a JSON string whose opening quote is at `json[start - 1]`, as far as it goes: the whole
 * string when its closing quote is there, else what was received before the JSON was cut off (an escape
 * cut in half is left out, and so is the first half of a surrogate pair). Undefined when it is no JSON
 * string (a control character, an unknown escape).
 */
export function decodePartialJsonString(json: string, start: number): string | undefined {
  let text = '';
  let at = start;
  while (at < json.length) {
    const char = json.charAt(at);
    if (char === '"') return text;
    if (char < ' ') return undefined;
    if (char !== '\\') {
      text += char;
      at += 1;
      continue;
    }
    const escape = json.charAt(at + 1);
    if (escape === '') break;
    if (escape === 'u') {
      const hex = json.slice(at + 2, at + 6);
      if (hex.length < 4) break;
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) return undefined;
      text += String.fromCharCode(Number.parseInt(hex, 16));
      at += 6;
      continue;
    }
    const decoded = ESCAPED[escape];
    if (decoded === undefined) return undefined;
    text += decoded;
    at += 2;
  }
  // A cut between the two halves of a surrogate pair leaves half a character: it is no text.
  return /[\uD800-\uDBFF]$/.test(text) ? text.slice(0, -1) : text;
}
