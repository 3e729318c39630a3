import { redactKnownSecrets } from '../transport/upstream-errors.ts';

function redactString(text: string, secrets: readonly string[]): string {
  return secrets.some((secret) => text.includes(secret)) ? redactKnownSecrets(text, secrets) : text;
}

function redactValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redactString(value, secrets);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, index) => {
      const redacted = redactValue(item, secrets);
      if (redacted !== item) (copy ??= [...value])[index] = redacted;
    });
    return copy ?? value;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    // Property names are the server's text too (a map keyed by token): a key holding a secret is renamed.
    const redacted = entries.map(([name, item]): [string, unknown] => [redactString(name, secrets), redactValue(item, secrets)]);
    const changed = redacted.some(([name, item], index) => name !== entries[index]?.[0] || item !== entries[index]?.[1]);
    return changed ? Object.fromEntries(redacted) : value;
  }
  return value;
}

/**
 * An upstream MCP server's answer (a tool result, its own isError result included, a prompt, a read, a
 * list) with the server's credentials taken out of every string, property names included: a server that
 * echoes its token would otherwise show it to every key holder of the project. Only the strings that hold
 * a secret, and the objects on their way, are copied; an answer that holds none comes back as the same object.
 */
export function redactAnswer<T>(answer: T, secrets: readonly string[]): T {
  const known = secrets.filter((secret) => secret.length > 0);
  // The walk returns the same shape it was given: only strings inside it change.
  return known.length === 0 ? answer : (redactValue(answer, known) as T);
}
