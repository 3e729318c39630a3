import * as z from 'zod';
import type { VideoJob, VideoJobStore } from '../../core/ports.ts';
import { GENERATION_TTL_ATTRIBUTE, generationExpiresAt } from './table-definitions.ts';
import { isAwsError } from '../../transport/aws-json-service.ts';
import { queryAll, type DynamoDocuments } from './dynamo-documents.ts';

const videoJobSchema = z.object({
  projectId: z.string(),
  videoId: z.string(),
  provider: z.string(),
  model: z.string(),
  requestId: z.string(),
  keyId: z.string(),
  createdAt: z.string(),
  video: z.record(z.string(), z.unknown()),
  billedAt: z.string().optional(),
  heldNanos: z.number().int().nonnegative().optional(),
  deletedAt: z.string().optional(),
});

/** The partition of a project's video jobs in the generations table; `@` never begins a generation key. */
export function videoJobsKey(projectId: string): string {
  return `@video#${projectId}`;
}

/**
 * Video jobs in the generations table, one partition per project (`@video#<project>`, the video id as the
 * sort key): a lookup names the project, so no project can reach another's jobs. They expire with the
 * generation records (the provider deletes the videos sooner).
 */
export class DynamoVideoJobs implements VideoJobStore {
  private readonly client: DynamoDocuments;
  private readonly table: { name: string; retentionDays: number };

  constructor(client: DynamoDocuments, table: { name: string; retentionDays: number }) {
    this.client = client;
    this.table = table;
  }

  /**
   * Writes what is known of the job, never its `billedAt`: that is claimBilling's alone, and a request that
   * read the job before another claimed it must not write the claim away with its older copy.
   */
  async save(job: VideoJob): Promise<void> {
    const { billedAt: _claimedApart, ...fields } = job;
    const values: Record<string, unknown> = { ...fields, [GENERATION_TTL_ATTRIBUTE]: generationExpiresAt(job.createdAt, this.table.retentionDays) };
    const names = Object.keys(values).filter((name) => values[name] !== undefined);
    await this.client.update({
      TableName: this.table.name,
      Key: { generationKey: videoJobsKey(job.projectId), recordId: job.videoId },
      UpdateExpression: `SET ${names.map((_, index) => `#f${index} = :v${index}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((name, index) => [`#f${index}`, name])),
      ExpressionAttributeValues: Object.fromEntries(names.map((name, index) => [`:v${index}`, values[name]])),
    });
  }

  async find(projectId: string, videoId: string): Promise<VideoJob | undefined> {
    const { Item } = await this.client.get({ TableName: this.table.name, Key: { generationKey: videoJobsKey(projectId), recordId: videoId }, ConsistentRead: true });
    return Item ? videoJobSchema.parse(Item) : undefined;
  }

  async list(projectId: string): Promise<VideoJob[]> {
    const items = await queryAll(this.client, {
      TableName: this.table.name,
      KeyConditionExpression: 'generationKey = :key',
      ExpressionAttributeValues: { ':key': videoJobsKey(projectId) },
    });
    return items.map((item) => videoJobSchema.parse(item));
  }

  async claimBilling(projectId: string, videoId: string, at: string): Promise<boolean> {
    try {
      await this.client.update({
        TableName: this.table.name,
        Key: { generationKey: videoJobsKey(projectId), recordId: videoId },
        UpdateExpression: 'SET billedAt = :at',
        ConditionExpression: 'attribute_exists(recordId) AND attribute_not_exists(billedAt)',
        ExpressionAttributeValues: { ':at': at },
      });
      return true;
    } catch (error) {
      if (isAwsError(error, 'ConditionalCheckFailedException')) return false;
      throw error;
    }
  }
}
