import { asJsonObject } from '../../core/json-object.ts';

/** Schemas nest no deeper than this in an example: a recursive `$ref` would otherwise never end. */
const MAX_DEPTH = 8;

/**
 * A value a JSON Schema accepts, for the mock's tool arguments and structured outputs: `const`, an enum's
 * first value, the first branch of `anyOf` / `oneOf`, `$ref` into the root's `$defs` / `definitions`; an
 * object with each required property (every property, as OpenAI's strict schemas require them all) filled
 * in; `"example"`, `0`, `false`, `[]` or null by type. Enough for an SDK's `.parse()` to succeed on the
 * schemas zod and Pydantic write.
 */
export function jsonExample(schema: unknown, root: unknown = schema, depth = 0): unknown {
  const node = asJsonObject(schema);
  if (!node || depth > MAX_DEPTH) return 'example';
  if ('const' in node) return node.const;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  const reference = typeof node.$ref === 'string' ? resolveReference(node.$ref, root) : undefined;
  if (reference) return jsonExample(reference, root, depth + 1);
  const branches = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
  if (branches && branches.length > 0) return jsonExample(branches[0], root, depth + 1);
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  switch (type) {
    case 'object': {
      const properties = asJsonObject(node.properties) ?? {};
      const required = Array.isArray(node.required) ? node.required.filter((name): name is string => typeof name === 'string') : [];
      return Object.fromEntries(required.map((name) => [name, jsonExample(properties[name], root, depth + 1)]));
    }
    case 'array':
      return [];
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return 'example';
  }
}

/** `#/$defs/Name` or `#/definitions/Name` in the root schema; other references are not followed. */
function resolveReference(reference: string, root: unknown): unknown {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(reference);
  if (!match) return undefined;
  return asJsonObject(asJsonObject(root)?.[match[1] as string])?.[decodeURIComponent((match[2] as string).replace(/~1/g, '/').replace(/~0/g, '~'))];
}
