import { describe, expect, it } from 'vitest';
import { namespaceContent, namespacePrompt, namespaceReadResult, namespaceResourceTemplate, namespaceTool } from '../../shared/mcp/namespace-results.ts';

describe('namespacing what a server answered', () => {
  it('renames a tool, keeping everything else about it', () => {
    const tool = { name: 'search', title: 'Search', description: 'd', inputSchema: { type: 'object' as const }, annotations: { readOnlyHint: true } };
    expect(namespaceTool('docs', tool)).toEqual({ ...tool, name: 'docs__search' });
  });

  it('renames prompts and maps resource templates', () => {
    expect(namespacePrompt('docs', { name: 'summarize' })).toEqual({ name: 'docs__summarize' });
    expect(namespaceResourceTemplate('docs', { name: 'page', uriTemplate: 'docs://{slug}' })).toEqual({ name: 'page', uriTemplate: 'mcp-gateway://docs/docs://{slug}' });
  });

  it('maps resource links and embedded resources in content, and leaves text alone', () => {
    expect(namespaceContent('docs', { type: 'resource_link', uri: 'docs://a', name: 'a' })).toEqual({ type: 'resource_link', uri: 'mcp-gateway://docs/docs://a', name: 'a' });
    expect(namespaceContent('docs', { type: 'resource', resource: { uri: 'docs://a', text: 'x' } })).toEqual({ type: 'resource', resource: { uri: 'mcp-gateway://docs/docs://a', text: 'x' } });
    expect(namespaceContent('docs', { type: 'text', text: 'docs://a' })).toEqual({ type: 'text', text: 'docs://a' });
  });

  it('maps every URI of a read result', () => {
    expect(namespaceReadResult('docs', { contents: [{ uri: 'docs://a', text: 'x' }, { uri: 'docs://b', blob: 'AA==' }] }).contents.map((contents) => contents.uri)).toEqual([
      'mcp-gateway://docs/docs://a',
      'mcp-gateway://docs/docs://b',
    ]);
  });
});
