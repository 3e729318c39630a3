import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { BridgeContext } from './bridge-context.ts';
import { listBridgedPrompts, listBridgedResources, listBridgedResourceTemplates, listBridgedTools } from './bridge-lists.ts';
import { getBridgedPrompt, readBridgedResource } from './bridge-lookups.ts';
import { callBridgedTool } from './call-bridged-tool.ts';
import { BRIDGE_CLIENT_INFO, jsonSchemaValidator } from './upstream-pool.ts';

const INSTRUCTIONS =
  "Tools, prompts and resources of this project's MCP servers, through the model gateway. Tools and prompts are named " +
  '<server>__<name>; resource URIs are mcp-gateway://<server>/<the server\'s own URI>.';

/**
 * The MCP server one bridge request talks to (the SDK's low-level Server: the bridge's lists are the
 * upstream servers' lists, not tools of its own). Built per request, like its stateless transport: no
 * state outlives the request, so any instance serves any request. `ping` and `initialize` are the
 * SDK's own; every other method asks the upstream servers.
 */
export function createBridgeServer(context: BridgeContext): Server {
  // The low-level Server is what the SDK offers for proxies; McpServer registers fixed tools.
  const server = new Server(BRIDGE_CLIENT_INFO, {
    capabilities: { tools: {}, prompts: {}, resources: {} },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator,
  });
  server.setRequestHandler(ListToolsRequestSchema, (request) => listBridgedTools(context, request.params?.cursor));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => callBridgedTool(context, request.params, extra));
  server.setRequestHandler(ListPromptsRequestSchema, (request) => listBridgedPrompts(context, request.params?.cursor));
  server.setRequestHandler(GetPromptRequestSchema, (request) => getBridgedPrompt(context, request.params));
  server.setRequestHandler(ListResourcesRequestSchema, (request) => listBridgedResources(context, request.params?.cursor));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => listBridgedResourceTemplates(context, request.params?.cursor));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => readBridgedResource(context, request.params));
  return server;
}
