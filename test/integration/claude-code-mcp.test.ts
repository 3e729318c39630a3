import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryLocalUsage } from '../../tools/cli/local-usage-query.ts';
import { ensureClaudeCode, runClaudeCode } from '../support/claude-code.ts';
import { startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { toolCallingModel } from '../support/fake-tool-calling-model.ts';
import { startDocsServer, type McpUpstream } from '../support/mcp-upstream-servers.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

const DOCS_TOKEN = 'docs-secret-0123456789';

let gateway: TestGateway;
let anthropic: FakeUpstream;
let docs: McpUpstream;
let key: string;
let claude: string;

beforeAll(async () => {
  claude = await ensureClaudeCode();
  anthropic = await startFakeOpenAiUpstream();
  anthropic.answerWith(toolCallingModel('docs__search', { query: 'cold starts' }));
  docs = await startDocsServer(DOCS_TOKEN);
  gateway = await startTestGateway();
  await gateway.admin({ command: 'project.create', projectId: 'agent' });
  await gateway.admin({ command: 'project.update', projectId: 'agent', mcp: true });
  await gateway.admin({ command: 'provider.set', projectId: 'agent', provider: 'anthropic', apiKey: 'sk-ant-upstream-0123456789', baseUrl: anthropic.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId: 'agent', slug: 'anthropic/claude-haiku-4-5' });
  await gateway.admin({ command: 'mcp.add', projectId: 'agent', name: 'docs', url: docs.url, headers: [{ name: 'X-Docs-Token', value: DOCS_TOKEN }] });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'agent' })).key;
}, 240_000);

afterAll(async () => {
  await gateway?.close();
  await anthropic?.close();
  await docs?.close();
});

describe('Claude Code with the gateway as its HTTP MCP server', () => {
  it('lists and calls a bridged tool headlessly, the call metered', { timeout: 150_000 }, async () => {
    // The MCP configuration Claude Code documents for HTTP servers: type http, the URL, the key as a header.
    const config = join(gateway.host.dataDir, 'mcp-config.json');
    const server = { type: 'http', url: `${gateway.url}/mcp/v1`, headers: { Authorization: `Bearer ${key}` } };
    await writeFile(config, JSON.stringify({ mcpServers: { gateway: server } }));

    const result = await runClaudeCode(claude, {
      baseUrl: gateway.url,
      token: key,
      model: 'claude-haiku-4-5',
      prompt: 'Search the docs for cold starts',
      extraArgs: ['--allowedTools', 'mcp__gateway__docs__search', '--strict-mcp-config', '--mcp-config', config],
      // MCP tools go to the model directly, not deferred behind Claude Code's tool search.
      env: { ENABLE_TOOL_SEARCH: 'false' },
    });

    expect(result.code, result.stderr).toBe(0);
    // The model was offered the bridged tool under Claude Code's name for it, called it, and read its result.
    const offered = anthropic.received.find((request) => ((request.body.tools ?? []) as Array<{ name: string }>).some((tool) => tool.name === 'mcp__gateway__docs__search'));
    expect(offered).toBeDefined();
    expect(result.stdout.trim()).toBe('Tool result: 3 pages match "cold starts"');

    await gateway.host.drainUsage();
    const rows = await queryLocalUsage(gateway.host.dataDir, "SELECT model, status, project_id FROM usage_records WHERE endpoint = 'mcp.tools_call'");
    expect(rows).toEqual([{ model: 'mcp/docs/search', status: 'completed', project_id: 'agent' }]);
  });
});
