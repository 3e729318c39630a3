import * as z from 'zod';
import { membershipSchema, type Membership } from '../../core/membership.ts';
import type { MembershipStore } from '../../core/ports.ts';
import { membersPartition, personPartition } from './table-definitions.ts';
import { queryAll, type DynamoDocuments } from './dynamo-documents.ts';

const storedMembershipSchema = z.object({ project: z.string(), member: z.string(), role: z.string(), addedAt: z.string() });

/**
 * Memberships in the projects table, written twice in one transaction: under `@members#<projectId>` (a
 * project's people) and under `@person#<member>` (a person's projects), so both lists are one query and
 * never disagree. Neither partition is a project's, so the request path never loads them.
 */
export class DynamoMembershipStore implements MembershipStore {
  private readonly client: DynamoDocuments;
  private readonly tableName: string;

  constructor(client: DynamoDocuments, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  async put(membership: Membership): Promise<void> {
    const data = { project: membership.projectId, member: membership.member, role: membership.role, addedAt: membership.addedAt };
    await this.client.transactWrite({
      TransactItems: this.keysOf(membership.projectId, membership.member).map((key) => ({
        Put: { TableName: this.tableName, Item: { ...key, ...data } },
      })),
    });
  }

  async remove(projectId: string, member: string): Promise<boolean> {
    const existing = (await this.listForMember(member)).some((membership) => membership.projectId === projectId);
    if (!existing) return false;
    await this.client.transactWrite({
      TransactItems: this.keysOf(projectId, member).map((key) => ({ Delete: { TableName: this.tableName, Key: key } })),
    });
    return true;
  }

  listForProject(projectId: string): Promise<Membership[]> {
    return this.queryPartition(membersPartition(projectId));
  }

  listForMember(member: string): Promise<Membership[]> {
    return this.queryPartition(personPartition(member));
  }

  private keysOf(projectId: string, member: string) {
    return [
      { projectId: membersPartition(projectId), itemKey: `member#${member}` },
      { projectId: personPartition(member), itemKey: `project#${projectId}` },
    ];
  }

  private async queryPartition(partition: string): Promise<Membership[]> {
    const items = await queryAll(this.client, {
      TableName: this.tableName,
      KeyConditionExpression: 'projectId = :partition',
      ExpressionAttributeValues: { ':partition': partition },
      ConsistentRead: true,
    });
    return items.map((item) => {
      const stored = storedMembershipSchema.parse(item);
      return membershipSchema.parse({ projectId: stored.project, member: stored.member, role: stored.role, addedAt: stored.addedAt });
    });
  }
}
