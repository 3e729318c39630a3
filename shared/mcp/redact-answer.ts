import { redactKnownSecrets } from '../transport/upstream-errors.ts';

function redactValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return secrets.some((secret) => value.includes(secret)) ? redactKnownSecrets(value, secrets) : value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, index) => {
      const redacted = redactValue(item, secrets);
      if (redacted !== item) (copy ??= [...value])[index] = redacted;
    });
    return copy ?? value;
  }
  if (value !== null && typeof value === 'object') {
    let copy: Record<string, unknown> | undefined;
    for (const [name, item] of Object.entries(value)) {
      const redacted = redactValue(item, secrets);
      if (redacted !== item) (copy ??= { ...value })[name] = redacted;
    }
    return copy ?? value;
  }
  return value;
}

/**
 * An upstream MCP server's answer (a tool result, its own isError result included, a prompt, a read, a
 * list) with the server's credentials taken out of every string: a server that echoes its token would
 * otherwise show it to every key holder of the project. Only the strings that hold a secret, and the
 * objects on their way, are copied; an answer that holds none comes back as the same object.
 */
export function redactAnswer<T>(answer: T, secrets: readonly string[]): T {
  const known = secrets.filter((secret) => secret.length > 0);
  // The walk returns the same shape it was given: only strings inside it change.
  return known.length === 0 ? answer : (redactValue(answer, known) as T);
}
