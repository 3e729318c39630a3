import { auditEntrySchema, type AuditEntry } from '../../core/audit-entry.ts';
import type { AuditTrail } from '../../core/ports.ts';
import { auditPartition } from './table-definitions.ts';
import type { DynamoDocuments } from './dynamo-documents.ts';

/**
 * The audit trail in the projects table, one partition per project (`@audit#<projectId>`), sorted by time:
 * the newest entries are one query read backwards. Entries are only ever added.
 */
export class DynamoAuditTrail implements AuditTrail {
  private readonly client: DynamoDocuments;
  private readonly tableName: string;

  constructor(client: DynamoDocuments, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  async append(entry: AuditEntry): Promise<void> {
    const { projectId, ...data } = entry;
    await this.client.put({
      TableName: this.tableName,
      Item: { projectId: auditPartition(projectId), itemKey: `entry#${entry.at}#${entry.entryId}`, project: projectId, ...data },
      ConditionExpression: 'attribute_not_exists(itemKey)',
    });
  }

  async listRecent(projectId: string, limit: number): Promise<AuditEntry[]> {
    const { Items } = await this.client.query({
      TableName: this.tableName,
      KeyConditionExpression: 'projectId = :partition',
      ExpressionAttributeValues: { ':partition': auditPartition(projectId) },
      ScanIndexForward: false,
      Limit: limit,
    });
    return (Items ?? []).map(({ project, projectId: _partition, itemKey: _itemKey, ...data }) => auditEntrySchema.parse({ ...data, projectId: project }));
  }
}
