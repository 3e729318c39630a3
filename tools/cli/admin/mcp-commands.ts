import { projectIdArgument, type CliCommand } from './cli-command.ts';
import { headerPair, text } from './flag-values.ts';

const serverArgument = { name: 'name', description: 'the server\'s name in the bridge: its tools show as <name>__<tool>', field: 'name' };
const SERVER_VIEW = '{name, url, header_names, updated_at}';

export const mcpCommands: CliCommand[] = [
  {
    group: 'mcp',
    verb: 'add',
    event: 'mcp.add',
    summary: "Add an upstream MCP server to a project's tool bridge, or replace it",
    details:
      'The URL is its Streamable HTTP endpoint, https and public unless the deployment allows private upstreams. ' +
      'Header values go to the secret store only: listings show their names, never a value. ' +
      'Replacing a server replaces its headers too. The bridge serves clients once "project update --mcp on". ' +
      'A server may not be named "all" or "none": key update --mcp-servers reads those as every server and no server.',
    arguments: [projectIdArgument, serverArgument],
    flags: [
      { name: '--url', value: 'URL', description: "the server's MCP endpoint", field: 'url', parse: text, required: true },
      { name: '--header', value: 'NAME=VALUE', description: 'a header sent with every request to the server (repeat for more)', field: 'headers', parse: headerPair, repeatable: true },
    ],
    examples: ['mcp add acme docs --url https://mcp.example.com/mcp --header "Authorization=Bearer $DOCS_TOKEN"'],
    prints: SERVER_VIEW,
  },
  {
    group: 'mcp',
    verb: 'list',
    event: 'mcp.list',
    summary: "List a project's MCP servers (never a header value)",
    arguments: [projectIdArgument],
    flags: [],
    examples: ['mcp list acme --output table'],
    prints: `{"mcp_enabled": true|false, "servers": [${SERVER_VIEW}]}, by name`,
  },
  {
    group: 'mcp',
    verb: 'remove',
    event: 'mcp.remove',
    summary: 'Remove an MCP server from a project and delete its header values',
    arguments: [projectIdArgument, serverArgument],
    flags: [],
    examples: ['mcp remove acme docs'],
    prints: `the remaining servers, as mcp list prints them`,
  },
];
