/**
 * Anthropic's API ("messages: first message must use the \"user\" role") and Bedrock's Converse ("A
 * conversation must start with a user message") refuse a conversation that does not open with a user turn,
 * and one with no turn at all; OpenAI's chat takes an assistant's greeting first (as chat apps send it), or a
 * system prompt alone. A translated conversation like that gets, before its first turn, a user turn of one
 * neutral character: the instructions stay where the client put them, and no words are put in the user's mouth.
 */
export const OPENING_USER_TEXT = '.';

export function opensWithUser(messages: ReadonlyArray<{ role: string }>): boolean {
  return messages[0]?.role === 'user';
}
