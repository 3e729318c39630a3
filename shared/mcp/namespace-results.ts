import type { ContentBlock, Prompt, PromptMessage, ReadResourceResult, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';
import { namespaceName, namespaceUri } from '../core/mcp-names.ts';

/**
 * What an upstream server answered, renamed into the bridge's namespace (mcp-names.ts): tools and
 * prompts as `<server>__<name>`, every resource URI (listed, read, linked or embedded in content) under
 * `mcp-gateway://<server>/`, so that whatever a client is shown it can hand back and reach the same thing.
 */
export function namespaceTool(server: string, tool: Tool): Tool {
  return { ...tool, name: namespaceName(server, tool.name) };
}

export function namespacePrompt(server: string, prompt: Prompt): Prompt {
  return { ...prompt, name: namespaceName(server, prompt.name) };
}

export function namespaceResource(server: string, resource: Resource): Resource {
  return { ...resource, uri: namespaceUri(server, resource.uri) };
}

export function namespaceResourceTemplate(server: string, template: ResourceTemplate): ResourceTemplate {
  return { ...template, uriTemplate: namespaceUri(server, template.uriTemplate) };
}

/** Resource links and embedded resources in tool results and prompt messages point into the namespace too. */
export function namespaceContent(server: string, content: ContentBlock): ContentBlock {
  if (content.type === 'resource_link') return { ...content, uri: namespaceUri(server, content.uri) };
  if (content.type === 'resource') return { ...content, resource: { ...content.resource, uri: namespaceUri(server, content.resource.uri) } };
  return content;
}

export function namespacePromptMessage(server: string, message: PromptMessage): PromptMessage {
  return { ...message, content: namespaceContent(server, message.content) };
}

export function namespaceReadResult(server: string, result: ReadResourceResult): ReadResourceResult {
  return { ...result, contents: result.contents.map((contents) => ({ ...contents, uri: namespaceUri(server, contents.uri) })) };
}
