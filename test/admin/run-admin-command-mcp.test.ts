import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseMcpHeaders } from '../../shared/core/mcp-header-secrets.ts';
import { startAdminHarness, type AdminHarness, type CreatedKeyView, type KeyView, type ProjectView } from './admin-harness.ts';

/** Every header value used here carries this marker, so no answer and no project item may contain it. */
const SECRET_MARKER = 'mcp-secret-';

interface ServerList {
  mcp_enabled: boolean;
  servers: Array<{ name: string; url: string; header_names: string[]; updated_at: string }>;
}

describe('runAdminCommand: MCP servers of the tool bridge', () => {
  let admin: AdminHarness;

  beforeAll(async () => {
    admin = await startAdminHarness();
  });
  afterEach(() => {
    for (const answer of admin.answers) expect(JSON.stringify(answer)).not.toContain(SECRET_MARKER);
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('adds a server with its headers in the secret store only, and lists it with the header names', async () => {
    await admin.ok({ command: 'project.create', projectId: 'tools' });

    const added = await admin.ok({
      command: 'mcp.add',
      projectId: 'tools',
      name: 'docs',
      url: 'https://mcp.example.com/mcp',
      headers: [
        { name: 'Authorization', value: 'Bearer mcp-secret-0001' },
        { name: 'X-Tenant', value: 'mcp-secret-tenant' },
      ],
    });

    expect(added).toEqual({ name: 'docs', url: 'https://mcp.example.com/mcp', header_names: ['Authorization', 'X-Tenant'], updated_at: '2025-01-02T03:04:05.000Z' });
    expect(parseMcpHeaders(await admin.secrets.getApiKey('tools', 'mcp/docs'))).toEqual({ Authorization: 'Bearer mcp-secret-0001', 'X-Tenant': 'mcp-secret-tenant' });
    const stored = (await admin.scan('admin-test-projects')).filter((item) => item.projectId === 'tools');
    expect(stored.map((item) => item.itemKey).sort()).toEqual(['mcp#docs', 'project']);
    expect(JSON.stringify(stored)).not.toContain(SECRET_MARKER);
    await expect(admin.ok<ServerList>({ command: 'mcp.list', projectId: 'tools' })).resolves.toEqual({ mcp_enabled: false, servers: [added] });
    expect((await admin.ok<ProjectView>({ command: 'project.get', projectId: 'tools' })).mcp_servers).toEqual([added]);
  });

  it('replaces a server with its headers: a server re-added without headers keeps no secret', async () => {
    await admin.ok({ command: 'project.create', projectId: 'replace' });
    await admin.ok({ command: 'mcp.add', projectId: 'replace', name: 'tickets', url: 'https://a.example.com/mcp', headers: [{ name: 'X-Api-Key', value: 'mcp-secret-old' }] });

    const replaced = await admin.ok({ command: 'mcp.add', projectId: 'replace', name: 'tickets', url: 'https://b.example.com/mcp' });

    expect(replaced).toMatchObject({ url: 'https://b.example.com/mcp', header_names: [] });
    await expect(admin.secrets.getApiKey('replace', 'mcp/tickets')).resolves.toBeUndefined();
  });

  it('validates the URL like a provider base URL: https and public here, no credentials or query', async () => {
    await admin.ok({ command: 'project.create', projectId: 'urls' });
    const refusal = (url: string) => admin.refused({ command: 'mcp.add', projectId: 'urls', name: 'x', url });

    await expect(refusal('http://mcp.example.com/mcp')).resolves.toMatchObject({ status: 400, message: expect.stringMatching(/^MCP server URLs must use https here; http:\/\/ is accepted only where/) });
    await expect(refusal('https://127.0.0.1:9000/mcp')).resolves.toMatchObject({ status: 400, message: expect.stringContaining('loopback, private or link-local') });
    await expect(refusal('https://user:pw@mcp.example.com/mcp')).resolves.toMatchObject({ message: 'An MCP server URL must not carry credentials; use --header.' });
    await expect(refusal('https://mcp.example.com/mcp?token=1')).resolves.toMatchObject({ message: 'An MCP server URL must not carry a query or fragment.' });
    await expect(admin.ok({ command: 'mcp.add', projectId: 'urls', name: 'local', url: 'http://127.0.0.1:9000/mcp' }, { allowPrivateUpstreams: true })).resolves.toMatchObject({
      url: 'http://127.0.0.1:9000/mcp',
    });
  });

  it('refuses server names that could not be told apart in <server>__<tool>, and a header given twice', async () => {
    await admin.ok({ command: 'project.create', projectId: 'names' });

    await expect(admin.refused({ command: 'mcp.add', projectId: 'names', name: 'my_docs', url: 'https://mcp.example.com' })).resolves.toMatchObject({ status: 400, code: 'invalid_command' });
    await expect(
      admin.refused({
        command: 'mcp.add',
        projectId: 'names',
        name: 'docs',
        url: 'https://mcp.example.com',
        headers: [
          { name: 'X-Key', value: 'mcp-secret-a' },
          { name: 'X-Key', value: 'mcp-secret-b' },
        ],
      }),
    ).resolves.toMatchObject({ status: 400, code: 'duplicate_header' });
  });

  it('refuses the names "all" and "none", which key update --mcp-servers reads as every server and no server', async () => {
    await admin.ok({ command: 'project.create', projectId: 'reserved' });

    for (const name of ['all', 'none']) {
      await expect(admin.refused({ command: 'mcp.add', projectId: 'reserved', name, url: 'https://mcp.example.com' })).resolves.toEqual({
        status: 400,
        code: 'invalid_command',
        message: 'name: "all" and "none" are not MCP server names: key update --mcp-servers reads them as every server and no server',
      });
    }
    await expect(admin.ok<ServerList>({ command: 'mcp.list', projectId: 'reserved' })).resolves.toMatchObject({ servers: [] });
    await expect(admin.ok({ command: 'mcp.add', projectId: 'reserved', name: 'all-docs', url: 'https://mcp.example.com' })).resolves.toMatchObject({ name: 'all-docs' });
  });

  it('removes a server and deletes its header values; removing it again is a 404', async () => {
    await admin.ok({ command: 'project.create', projectId: 'removal' });
    await admin.ok({ command: 'mcp.add', projectId: 'removal', name: 'docs', url: 'https://mcp.example.com', headers: [{ name: 'Authorization', value: 'mcp-secret-x' }] });

    await expect(admin.ok<ServerList>({ command: 'mcp.remove', projectId: 'removal', name: 'docs' })).resolves.toEqual({ mcp_enabled: false, servers: [] });
    await expect(admin.secrets.getApiKey('removal', 'mcp/docs')).resolves.toBeUndefined();
    await expect(admin.refused({ command: 'mcp.remove', projectId: 'removal', name: 'docs' })).resolves.toMatchObject({ status: 404, code: 'mcp_server_not_found' });
  });

  it("sets and lifts a key's server and tool allowlists", async () => {
    await admin.ok({ command: 'project.create', projectId: 'allow' });
    const key = await admin.ok<CreatedKeyView>({ command: 'key.create', projectId: 'allow' });

    const narrowed = await admin.ok<KeyView>({ command: 'key.update', projectId: 'allow', keyId: key.id, mcpServers: ['docs'], mcpTools: ['docs__search'] });
    expect(narrowed).toMatchObject({ mcp_servers: ['docs'], mcp_tools: ['docs__search'] });
    const [stored] = await admin.keys.listForProject('allow');
    expect(stored).toMatchObject({ mcpServers: ['docs'], mcpTools: ['docs__search'] });

    const lifted = await admin.ok<KeyView>({ command: 'key.update', projectId: 'allow', keyId: key.id, mcpServers: 'all', mcpTools: 'all' });
    expect(lifted).toMatchObject({ mcp_servers: null, mcp_tools: null });
    await expect(admin.refused({ command: 'key.update', projectId: 'allow', keyId: key.id, mcpTools: ['search'] })).resolves.toMatchObject({ status: 400, code: 'invalid_command' });
  });

  it('gives a key no MCP server or no tool with an empty list, which "all" lifts again; "none" is no longer a value of the event', async () => {
    await admin.ok({ command: 'project.create', projectId: 'closed' });
    const key = await admin.ok<CreatedKeyView>({ command: 'key.create', projectId: 'closed' });

    const closed = await admin.ok<KeyView>({ command: 'key.update', projectId: 'closed', keyId: key.id, mcpServers: [], mcpTools: [] });
    expect(closed).toMatchObject({ mcp_servers: [], mcp_tools: [] });
    const [stored] = await admin.keys.listForProject('closed');
    expect(stored).toMatchObject({ mcpServers: [], mcpTools: [] });
    expect((await admin.ok<KeyView>({ command: 'key.update', projectId: 'closed', keyId: key.id, mcpServers: 'all' })).mcp_servers).toBeNull();
    // It lifted a list before: refused rather than read with the opposite meaning.
    await expect(admin.refused({ command: 'key.update', projectId: 'closed', keyId: key.id, mcpServers: 'none' })).resolves.toMatchObject({ status: 400, code: 'invalid_command' });
  });
});
