import {
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ListToolsResultSchema,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
} from '@modelcontextprotocol/sdk/types.js';
import { upstreamRequestOptions, type BridgeContext } from './bridge-context.ts';
import { listAcrossServers, type AggregatedPage } from './list-across-servers.ts';
import { namespacePrompt, namespaceResource, namespaceResourceTemplate, namespaceTool } from './namespace-results.ts';

/** The page's cursor and `_meta`, under the names every list result uses. */
function pageFields<Item>(page: AggregatedPage<Item>) {
  return { ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), ...(page._meta ? { _meta: page._meta } : {}) };
}

const cursorParams = (cursor: string | undefined) => (cursor === undefined ? {} : { cursor });

/** tools/list: every tool the key may call, as `<server>__<tool>`. */
export async function listBridgedTools(context: BridgeContext, cursor: string | undefined): Promise<ListToolsResult> {
  const page = await listAcrossServers(context, cursor, {
    capability: 'tools',
    // request(), not listTools(): the SDK's listTools compiles each tool's output schema, which the bridge never uses.
    fetchPage: async (client, serverCursor) => {
      const result = await client.request({ method: 'tools/list', params: cursorParams(serverCursor) }, ListToolsResultSchema, upstreamRequestOptions(context));
      return { items: result.tools, nextCursor: result.nextCursor };
    },
    present: (server, tool) => (context.access.allowsTool(server, tool.name) ? namespaceTool(server, tool) : undefined),
  });
  return { tools: page.items, ...pageFields(page) };
}

/** prompts/list: the prompts of the servers the key may reach, as `<server>__<prompt>`. */
export async function listBridgedPrompts(context: BridgeContext, cursor: string | undefined): Promise<ListPromptsResult> {
  const page = await listAcrossServers(context, cursor, {
    capability: 'prompts',
    fetchPage: async (client, serverCursor) => {
      const result = await client.request({ method: 'prompts/list', params: cursorParams(serverCursor) }, ListPromptsResultSchema, upstreamRequestOptions(context));
      return { items: result.prompts, nextCursor: result.nextCursor };
    },
    present: namespacePrompt,
  });
  return { prompts: page.items, ...pageFields(page) };
}

/** resources/list: the resources of the servers the key may reach, under `mcp-gateway://<server>/`. */
export async function listBridgedResources(context: BridgeContext, cursor: string | undefined): Promise<ListResourcesResult> {
  const page = await listAcrossServers(context, cursor, {
    capability: 'resources',
    fetchPage: async (client, serverCursor) => {
      const result = await client.request({ method: 'resources/list', params: cursorParams(serverCursor) }, ListResourcesResultSchema, upstreamRequestOptions(context));
      return { items: result.resources, nextCursor: result.nextCursor };
    },
    present: namespaceResource,
  });
  return { resources: page.items, ...pageFields(page) };
}

/** resources/templates/list: templates map like URIs, so an expanded template reads through the bridge. */
export async function listBridgedResourceTemplates(context: BridgeContext, cursor: string | undefined): Promise<ListResourceTemplatesResult> {
  const page = await listAcrossServers(context, cursor, {
    capability: 'resources',
    fetchPage: async (client, serverCursor) => {
      const result = await client.request(
        { method: 'resources/templates/list', params: cursorParams(serverCursor) },
        ListResourceTemplatesResultSchema,
        upstreamRequestOptions(context),
      );
      return { items: result.resourceTemplates, nextCursor: result.nextCursor };
    },
    present: namespaceResourceTemplate,
  });
  return { resourceTemplates: page.items, ...pageFields(page) };
}
