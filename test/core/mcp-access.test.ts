import { describe, expect, it } from 'vitest';
import { mcpAccessOf } from '../../shared/core/mcp-access.ts';

describe('mcpAccessOf', () => {
  it('lets a key without allowlists reach every server and tool', () => {
    const access = mcpAccessOf({});
    expect(access.allowsServer('docs')).toBe(true);
    expect(access.allowsTool('tickets', 'open')).toBe(true);
  });

  it('narrows the servers, their tools with them', () => {
    const access = mcpAccessOf({ mcpServers: ['docs'] });
    expect(access.allowsServer('docs')).toBe(true);
    expect(access.allowsServer('tickets')).toBe(false);
    expect(access.allowsTool('docs', 'search')).toBe(true);
    expect(access.allowsTool('tickets', 'open')).toBe(false);
  });

  it('narrows the tools by their namespaced names, leaving the servers reachable', () => {
    const access = mcpAccessOf({ mcpTools: ['docs__search'] });
    expect(access.allowsServer('tickets')).toBe(true);
    expect(access.allowsTool('docs', 'search')).toBe(true);
    expect(access.allowsTool('docs', 'delete')).toBe(false);
  });

  it('lets a key with an empty server list reach nothing, and one with an empty tool list no tool', () => {
    const closed = mcpAccessOf({ mcpServers: [] });
    expect(closed.allowsServer('docs')).toBe(false);
    expect(closed.allowsTool('docs', 'search')).toBe(false);
    const toolless = mcpAccessOf({ mcpTools: [] });
    expect(toolless.allowsServer('docs')).toBe(true);
    expect(toolless.allowsTool('docs', 'search')).toBe(false);
  });

  it('allows a tool only when both lists do', () => {
    const access = mcpAccessOf({ mcpServers: ['docs'], mcpTools: ['docs__search', 'tickets__open'] });
    expect(access.allowsTool('docs', 'search')).toBe(true);
    expect(access.allowsTool('tickets', 'open')).toBe(false);
  });
});
