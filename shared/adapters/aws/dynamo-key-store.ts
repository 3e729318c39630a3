import { keyRecordSchema, type KeyRecord } from '../../core/key-record.ts';
import type { KeyChanges, KeyLastUseRecorder, KeyStore } from '../../core/ports.ts';
import { KEYS_BY_PROJECT_INDEX } from './table-definitions.ts';
import { PARSED_RARELY } from '../../core/parsed-rarely.ts';
import { isAwsError } from '../../transport/aws-json-service.ts';
import { queryAll, type DynamoDocuments } from './dynamo-documents.ts';

/** Project keys in DynamoDB, one item per key hash. */
export class DynamoKeyStore implements KeyStore, KeyLastUseRecorder {
  private readonly client: DynamoDocuments;
  private readonly tableName: string;

  constructor(client: DynamoDocuments, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  async findByHash(keyHash: string): Promise<KeyRecord | undefined> {
    const { Item } = await this.client.get({ TableName: this.tableName, Key: { keyHash } });
    return Item ? keyRecordSchema.parse(Item, PARSED_RARELY) : undefined;
  }

  async put(record: KeyRecord): Promise<void> {
    await this.client.put({
      TableName: this.tableName,
      Item: record,
      ConditionExpression: 'attribute_not_exists(keyHash)',
    });
  }

  async listForProject(projectId: string): Promise<KeyRecord[]> {
    const items = await queryAll(this.client, {
      TableName: this.tableName,
      IndexName: KEYS_BY_PROJECT_INDEX,
      KeyConditionExpression: 'projectId = :projectId',
      ExpressionAttributeValues: { ':projectId': projectId },
    });
    return items.map((item) => keyRecordSchema.parse(item));
  }

  async update(projectId: string, keyId: string, changes: KeyChanges): Promise<KeyRecord | undefined> {
    const found = await this.findById(projectId, keyId);
    if (!found || found.revokedAt) return found;
    const sets: string[] = [];
    const removes: string[] = [];
    const values: Record<string, unknown> = {};
    if (changes.name !== undefined) {
      sets.push('#name = :name');
      values[':name'] = changes.name;
    }
    if (changes.disabled !== undefined) {
      sets.push('disabled = :disabled');
      values[':disabled'] = changes.disabled;
      if (!changes.disabled) removes.push('disabledBy');
      else if (changes.disabledBy !== undefined) {
        sets.push('disabledBy = :disabledBy');
        values[':disabledBy'] = changes.disabledBy;
      }
    }
    if (changes.rpm === null) removes.push('rpm');
    else if (changes.rpm !== undefined) {
      sets.push('rpm = :rpm');
      values[':rpm'] = changes.rpm;
    }
    for (const list of ['mcpServers', 'mcpTools'] as const) {
      const change = changes[list];
      if (change === null) removes.push(list);
      else if (change !== undefined) {
        sets.push(`${list} = :${list}`);
        values[`:${list}`] = change;
      }
    }
    if (sets.length === 0 && removes.length === 0) return found;
    try {
      const { Attributes } = await this.client.update({
        TableName: this.tableName,
        Key: { keyHash: found.keyHash },
        UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].join(' ').trim(),
        ConditionExpression: 'attribute_exists(keyHash) AND attribute_not_exists(revokedAt)',
        ...(changes.name !== undefined ? { ExpressionAttributeNames: { '#name': 'name' } } : {}),
        ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
        ReturnValues: 'ALL_NEW',
      });
      return keyRecordSchema.parse(Attributes);
    } catch (error) {
      // Revoked since it was read: the key as it now is, unchanged.
      if (isAwsError(error, 'ConditionalCheckFailedException')) return this.findByHash(found.keyHash);
      throw error;
    }
  }

  private async findById(projectId: string, keyId: string): Promise<KeyRecord | undefined> {
    const { Items } = await this.client.query({
      TableName: this.tableName,
      IndexName: KEYS_BY_PROJECT_INDEX,
      KeyConditionExpression: 'projectId = :projectId AND keyId = :keyId',
      ExpressionAttributeValues: { ':projectId': projectId, ':keyId': keyId },
    });
    return Items?.[0] ? keyRecordSchema.parse(Items[0]) : undefined;
  }

  async revoke(projectId: string, keyId: string, revokedAt: string): Promise<KeyRecord | undefined> {
    const found = await this.findById(projectId, keyId);
    if (!found) return undefined;
    if (found.revokedAt) return found;
    try {
      const { Attributes } = await this.client.update({
        TableName: this.tableName,
        Key: { keyHash: found.keyHash },
        UpdateExpression: 'SET revokedAt = :revokedAt',
        ConditionExpression: 'attribute_exists(keyHash) AND attribute_not_exists(revokedAt)',
        ExpressionAttributeValues: { ':revokedAt': revokedAt },
        ReturnValues: 'ALL_NEW',
      });
      return keyRecordSchema.parse(Attributes);
    } catch (error) {
      // Revoked concurrently: the key is revoked either way.
      if (isAwsError(error, 'ConditionalCheckFailedException')) return this.findByHash(found.keyHash);
      throw error;
    }
  }

  /** Conditional, so a late or redelivered record never moves the stamp back. */
  async recordLastUse(projectId: string, keyId: string, usedAt: string): Promise<void> {
    const found = await this.findById(projectId, keyId);
    if (!found || (found.lastUsedAt !== undefined && found.lastUsedAt >= usedAt)) return;
    try {
      await this.client.update({
        TableName: this.tableName,
        Key: { keyHash: found.keyHash },
        UpdateExpression: 'SET lastUsedAt = :usedAt',
        ConditionExpression: 'attribute_exists(keyHash) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :usedAt)',
        ExpressionAttributeValues: { ':usedAt': usedAt },
      });
    } catch (error) {
      if (!isAwsError(error, 'ConditionalCheckFailedException')) throw error;
    }
  }
}
