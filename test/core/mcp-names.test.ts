import { describe, expect, it } from 'vitest';
import { namespaceName, namespaceUri, splitNamespacedName, splitNamespacedUri } from '../../shared/core/mcp-names.ts';

describe('namespaceName and splitNamespacedName', () => {
  it.each([
    ['docs', 'search'],
    ['docs', 'search__deep'],
    ['my-docs', '__private'],
    ['a1', 'tool.with.dots'],
  ])('maps %s + %s there and back', (server, name) => {
    expect(splitNamespacedName(namespaceName(server, name))).toEqual({ server, name });
  });

  it.each(['search', '__search', 'docs__', 'Docs__search', 'my_docs__search', '-docs__search'])('finds no server in %s', (name) => {
    expect(splitNamespacedName(name)).toBeUndefined();
  });
});

describe('namespaceUri and splitNamespacedUri', () => {
  it.each([
    ['docs', 'file:///srv/a.md'],
    ['docs', 'docs://pages/{slug}'],
    ['wiki', 'https://wiki.example.com/a?b=c#d'],
    ['wiki', 'mcp-gateway://other/x'],
  ])('maps %s + %s there and back, the original text kept', (server, uri) => {
    const namespaced = namespaceUri(server, uri);
    expect(namespaced).toBe(`mcp-gateway://${server}/${uri}`);
    expect(splitNamespacedUri(namespaced)).toEqual({ server, uri });
  });

  it.each(['file:///a.md', 'mcp-gateway://docs', 'mcp-gateway://docs/', 'mcp-gateway:///file:///a', 'mcp-gateway://Bad_Name/x'])('finds no server in %s', (uri) => {
    expect(splitNamespacedUri(uri)).toBeUndefined();
  });
});
