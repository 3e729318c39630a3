import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DeleteCommand, DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DynamoProjectStore } from '../../../shared/adapters/aws/dynamo-project-store.ts';
import type { AllowedModel, Project, ProviderConfig, RateCardEntry } from '../../../shared/core/project-config.ts';
import { documentsOverSdk } from '../../support/sdk-documents.ts';

const at = '2025-01-02T03:04:05.000Z';

function project(projectId: string, overrides: Partial<Project> = {}): Project {
  return { projectId, name: projectId, plan: 'active', usageInjection: false, failover: false, mcp: false, createdAt: at, updatedAt: at, ...overrides };
}
const openai: ProviderConfig = { provider: 'openai', protocols: ['openai-chat'], auth: 'bearer', baseUrl: 'https://api.openai.com/v1', hasApiKey: true, updatedAt: at };
const mini: AllowedModel = { slug: 'openai/gpt-4o-mini', provider: 'openai', model: 'gpt-4o-mini', alias: 'mini', kind: 'chat', createdAt: at };
const miniRate: RateCardEntry = { slug: 'openai/gpt-4o-mini', inputPriceMicrosPer1k: 150, outputPriceMicrosPer1k: 600 };

function conditionFailed(): ConditionalCheckFailedException {
  return new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
}

describe('DynamoProjectStore', () => {
  describe('commands sent to DynamoDB', () => {
    let dynamo: AwsClientStub<DynamoDBDocumentClient>;
    let store: DynamoProjectStore;

    beforeAll(() => {
      dynamo = mockClient(DynamoDBDocumentClient);
      store = new DynamoProjectStore(documentsOverSdk(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }))), 'projects-table');
    });
    afterEach(() => dynamo.reset());
    afterAll(() => dynamo.restore());

    it("loads a project's whole partition with one query per page, following LastEvaluatedKey", async () => {
      const pageEnd = { projectId: 'alpha', itemKey: 'model#openai/gpt-4o-mini' };
      dynamo
        .on(QueryCommand)
        .resolvesOnce({
          Items: [
            { ...mini, projectId: 'alpha', itemKey: `model#${mini.slug}` },
            { ...project('alpha'), itemKey: 'project' },
          ],
          LastEvaluatedKey: pageEnd,
        })
        .resolvesOnce({
          Items: [
            { ...openai, projectId: 'alpha', itemKey: 'provider#openai' },
            { ...miniRate, projectId: 'alpha', itemKey: `rate#${miniRate.slug}` },
            { projectId: 'alpha', itemKey: 'future#kind', whatever: 1 },
          ],
        });

      const config = await store.loadProjectConfig('alpha');

      expect(config?.project).toEqual(project('alpha'));
      expect([...(config?.providers ?? new Map())]).toEqual([['openai', openai]]);
      expect(config?.models).toEqual([mini]);
      expect([...(config?.rates ?? new Map())]).toEqual([[miniRate.slug, miniRate]]);
      const calls = dynamo.commandCalls(QueryCommand);
      expect(calls).toHaveLength(2);
      const expected = {
        TableName: 'projects-table',
        KeyConditionExpression: 'projectId = :projectId',
        ExpressionAttributeValues: { ':projectId': 'alpha' },
      };
      expect(calls[0]?.args[0].input).toEqual(expected);
      expect(calls[0]?.args[0].input.IndexName).toBeUndefined();
      expect(calls[1]?.args[0].input).toEqual({ ...expected, ExclusiveStartKey: pageEnd });
    });

    it('answers undefined when the partition has no project item', async () => {
      dynamo.on(QueryCommand).resolves({ Items: [{ ...openai, projectId: 'ghost', itemKey: 'provider#openai' }] });

      await expect(store.loadProjectConfig('ghost')).resolves.toBeUndefined();
    });

    it('reads the organisation rate card from the @org partition', async () => {
      dynamo.on(QueryCommand).resolves({ Items: [{ ...miniRate, projectId: '@org', itemKey: `rate#${miniRate.slug}` }] });

      const card = await store.loadOrgRateCard();

      expect([...card]).toEqual([[miniRate.slug, miniRate]]);
      expect(dynamo.commandCalls(QueryCommand)[0]?.args[0].input.ExpressionAttributeValues).toEqual({ ':projectId': '@org' });
    });

    it('creates a project only when absent (attribute_not_exists(projectId))', async () => {
      dynamo.on(PutCommand).resolves({});

      await expect(store.putProject(project('alpha'), { mustNotExist: true })).resolves.toBe(true);

      expect(dynamo.commandCalls(PutCommand)[0]?.args[0].input).toEqual({
        TableName: 'projects-table',
        Item: { ...project('alpha'), itemKey: 'project' },
        ConditionExpression: 'attribute_not_exists(projectId)',
      });
    });

    it('returns false when the project already exists (ConditionalCheckFailedException)', async () => {
      dynamo.on(PutCommand).rejects(conditionFailed());

      await expect(store.putProject(project('alpha'), { mustNotExist: true })).resolves.toBe(false);
    });

    it('overwrites a project without a condition when it may exist', async () => {
      dynamo.on(PutCommand).resolves({});

      await expect(store.putProject(project('alpha', { name: 'Renamed' }), { mustNotExist: false })).resolves.toBe(true);

      const input = dynamo.commandCalls(PutCommand)[0]?.args[0].input;
      expect(input?.Item).toEqual({ ...project('alpha', { name: 'Renamed' }), itemKey: 'project' });
      expect(input?.ConditionExpression).toBeUndefined();
    });

    it('propagates store failures other than the condition', async () => {
      dynamo.on(PutCommand).rejects(new Error('service unavailable'));

      await expect(store.putProject(project('alpha'), { mustNotExist: true })).rejects.toThrow('service unavailable');
    });

    it('writes a provider as provider#<name> in the project partition', async () => {
      dynamo.on(PutCommand).resolves({});

      await store.putProvider('alpha', openai);

      expect(dynamo.commandCalls(PutCommand)[0]?.args[0].input).toEqual({
        TableName: 'projects-table',
        Item: { ...openai, projectId: 'alpha', itemKey: 'provider#openai' },
      });
    });

    it('writes a model and its project rate in one batch', async () => {
      dynamo.on(BatchWriteCommand).resolves({});

      await store.putModel('alpha', mini, miniRate);

      expect(dynamo.commandCalls(BatchWriteCommand)[0]?.args[0].input).toEqual({
        RequestItems: {
          'projects-table': [
            { PutRequest: { Item: { ...mini, projectId: 'alpha', itemKey: 'model#openai/gpt-4o-mini' } } },
            { PutRequest: { Item: { ...miniRate, projectId: 'alpha', itemKey: 'rate#openai/gpt-4o-mini' } } },
          ],
        },
      });
    });

    it('writes only the model when it has no project rate', async () => {
      dynamo.on(BatchWriteCommand).resolves({});

      await store.putModel('alpha', mini, undefined);

      expect(dynamo.commandCalls(BatchWriteCommand)[0]?.args[0].input.RequestItems?.['projects-table']).toEqual([
        { PutRequest: { Item: { ...mini, projectId: 'alpha', itemKey: 'model#openai/gpt-4o-mini' } } },
      ]);
    });

    it('sends again the items a batch write left unprocessed', async () => {
      const rateRequest = { PutRequest: { Item: { ...miniRate, projectId: 'alpha', itemKey: 'rate#openai/gpt-4o-mini' } } };
      dynamo
        .on(BatchWriteCommand)
        .resolvesOnce({ UnprocessedItems: { 'projects-table': [rateRequest] } })
        .resolvesOnce({ UnprocessedItems: {} });

      await store.putModel('alpha', mini, miniRate);

      const calls = dynamo.commandCalls(BatchWriteCommand);
      expect(calls).toHaveLength(2);
      expect(calls[1]?.args[0].input).toEqual({ RequestItems: { 'projects-table': [rateRequest] } });
    });

    it('fails, rather than report success, when items stay unprocessed after five attempts', async () => {
      const rateRequest = { PutRequest: { Item: { ...miniRate, projectId: 'alpha', itemKey: 'rate#openai/gpt-4o-mini' } } };
      dynamo.on(BatchWriteCommand).resolves({ UnprocessedItems: { 'projects-table': [rateRequest] } });

      await expect(store.putModel('alpha', mini, miniRate)).rejects.toThrow('unprocessed');
      expect(dynamo.commandCalls(BatchWriteCommand)).toHaveLength(5);
    });

    it('removes a model and its rate, and reports whether the model was there', async () => {
      dynamo.on(DeleteCommand).resolvesOnce({ Attributes: { ...mini, projectId: 'alpha', itemKey: 'model#openai/gpt-4o-mini' } }).resolves({});

      await expect(store.removeModel('alpha', 'openai/gpt-4o-mini')).resolves.toBe(true);

      const calls = dynamo.commandCalls(DeleteCommand).map((call) => call.args[0].input);
      expect(calls).toEqual([
        { TableName: 'projects-table', Key: { projectId: 'alpha', itemKey: 'model#openai/gpt-4o-mini' }, ReturnValues: 'ALL_OLD' },
        { TableName: 'projects-table', Key: { projectId: 'alpha', itemKey: 'rate#openai/gpt-4o-mini' } },
      ]);
    });

    it('reports false when removing a model that is not on the allowlist', async () => {
      dynamo.on(DeleteCommand).resolves({});

      await expect(store.removeModel('alpha', 'openai/absent')).resolves.toBe(false);
    });

    it('writes organisation rates under the @org partition', async () => {
      dynamo.on(PutCommand).resolves({});

      await store.putOrgRate(miniRate);

      expect(dynamo.commandCalls(PutCommand)[0]?.args[0].input).toEqual({
        TableName: 'projects-table',
        Item: { ...miniRate, projectId: '@org', itemKey: 'rate#openai/gpt-4o-mini' },
      });
    });
  });
});
