import type { BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { OrgRateCardStore, ProjectAdminStore, ProjectConfigSource } from '../../core/ports.ts';
import {
  allowedModelSchema,
  projectSchema,
  providerConfigSchema,
  rateCardEntrySchema,
  type AllowedModel,
  type OrgRateCard,
  type Project,
  type ProjectConfig,
  type ProviderConfig,
  type RateCardEntry,
} from '../../core/project-config.ts';
import { mcpServerConfigSchema, type McpServerConfig } from '../../core/mcp-server-config.ts';
import { ORG_PARTITION } from './table-definitions.ts';
import { PARSED_RARELY } from '../../core/parsed-rarely.ts';
import { isAwsError } from '../../transport/aws-json-service.ts';
import { queryAll, scanAll, type DynamoDocuments } from './dynamo-documents.ts';

type Item = Record<string, unknown>;
const MAX_BATCH_ATTEMPTS = 5;

/**
 * Projects, their providers, allowlist and rate overrides in one DynamoDB partition per project, so
 * the request path loads a whole project with one query.
 */
export class DynamoProjectStore implements ProjectConfigSource, ProjectAdminStore, OrgRateCardStore {
  private readonly client: DynamoDocuments;
  private readonly tableName: string;

  constructor(client: DynamoDocuments, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  async loadProjectConfig(projectId: string): Promise<ProjectConfig | undefined> {
    const items = await this.queryPartition(projectId);
    const projectItem = items.find((item) => item.itemKey === 'project');
    if (!projectItem) return undefined;
    const config: ProjectConfig = {
      project: projectSchema.parse(projectItem, PARSED_RARELY),
      providers: new Map(),
      models: [],
      rates: new Map(),
      mcpServers: new Map(),
    };
    for (const item of items) {
      const itemKey = String(item.itemKey);
      if (itemKey.startsWith('provider#')) {
        const provider = providerConfigSchema.parse(item, PARSED_RARELY);
        config.providers.set(provider.provider, provider);
      } else if (itemKey.startsWith('model#')) {
        config.models.push(allowedModelSchema.parse(item, PARSED_RARELY));
      } else if (itemKey.startsWith('rate#')) {
        const rate = rateCardEntrySchema.parse(item, PARSED_RARELY);
        config.rates.set(rate.slug, rate);
      } else if (itemKey.startsWith('mcp#')) {
        const server = mcpServerConfigSchema.parse(item, PARSED_RARELY);
        config.mcpServers?.set(server.name, server);
      }
    }
    return config;
  }

  async loadOrgRateCard(): Promise<OrgRateCard> {
    const items = await this.queryPartition(ORG_PARTITION);
    const card: OrgRateCard = new Map();
    for (const item of items) {
      if (String(item.itemKey).startsWith('rate#')) {
        const rate = rateCardEntrySchema.parse(item, PARSED_RARELY);
        card.set(rate.slug, rate);
      }
    }
    return card;
  }

  async putProject(project: Project, options: { mustNotExist: boolean }): Promise<boolean> {
    try {
      await this.client.put({
        TableName: this.tableName,
        Item: { ...project, itemKey: 'project' },
        ...(options.mustNotExist ? { ConditionExpression: 'attribute_not_exists(projectId)' } : {}),
      });
      return true;
    } catch (error) {
      if (isAwsError(error, 'ConditionalCheckFailedException')) return false;
      throw error;
    }
  }

  async putProvider(projectId: string, provider: ProviderConfig): Promise<void> {
    await this.client.put({ TableName: this.tableName, Item: { ...provider, projectId, itemKey: `provider#${provider.provider}` } });
  }

  async removeProvider(projectId: string, provider: string): Promise<boolean> {
    const { Attributes } = await this.client.delete({ TableName: this.tableName, Key: { projectId, itemKey: `provider#${provider}` }, ReturnValues: 'ALL_OLD' });
    return Attributes !== undefined;
  }

  /** A scan filtered to the project records: an admin listing, rare and small next to the request path's reads. */
  async listProjects(): Promise<Project[]> {
    const items = await scanAll(this.client, {
      TableName: this.tableName,
      FilterExpression: 'itemKey = :project',
      ExpressionAttributeValues: { ':project': 'project' },
    });
    return items.map((item) => projectSchema.parse(item));
  }

  async putModel(projectId: string, model: AllowedModel, rate: RateCardEntry | undefined): Promise<void> {
    const puts: Item[] = [{ ...model, projectId, itemKey: `model#${model.slug}` }];
    if (rate) puts.push({ ...rate, projectId, itemKey: `rate#${rate.slug}` });
    let requestItems: BatchWriteCommandInput['RequestItems'] = {
      [this.tableName]: puts.map((Item) => ({ PutRequest: { Item } })),
    };
    // A batch write may leave items unprocessed (throttling): send them again rather than lose them.
    for (let attempt = 1; requestItems && Object.keys(requestItems).length > 0; attempt++) {
      if (attempt > MAX_BATCH_ATTEMPTS) throw new Error('DynamoDB left part of the model write unprocessed.');
      if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** (attempt - 1)));
      ({ UnprocessedItems: requestItems } = await this.client.batchWrite({ RequestItems: requestItems }));
    }
  }

  async removeModel(projectId: string, slug: string): Promise<boolean> {
    const { Attributes } = await this.client.delete({ TableName: this.tableName, Key: { projectId, itemKey: `model#${slug}` }, ReturnValues: 'ALL_OLD' });
    await this.client.delete({ TableName: this.tableName, Key: { projectId, itemKey: `rate#${slug}` } });
    return Attributes !== undefined;
  }

  async putMcpServer(projectId: string, server: McpServerConfig): Promise<void> {
    await this.client.put({ TableName: this.tableName, Item: { ...server, projectId, itemKey: `mcp#${server.name}` } });
  }

  async removeMcpServer(projectId: string, name: string): Promise<boolean> {
    const { Attributes } = await this.client.delete({ TableName: this.tableName, Key: { projectId, itemKey: `mcp#${name}` }, ReturnValues: 'ALL_OLD' });
    return Attributes !== undefined;
  }

  async putOrgRate(entry: RateCardEntry): Promise<void> {
    await this.client.put({ TableName: this.tableName, Item: { ...entry, projectId: ORG_PARTITION, itemKey: `rate#${entry.slug}` } });
  }

  private async queryPartition(projectId: string): Promise<Item[]> {
    return queryAll(this.client, {
      TableName: this.tableName,
      KeyConditionExpression: 'projectId = :projectId',
      ExpressionAttributeValues: { ':projectId': projectId },
    });
  }
}
