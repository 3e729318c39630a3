import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoVideoJobs } from '../../../shared/adapters/aws/dynamo-video-jobs.ts';
import type { VideoJob } from '../../../shared/core/ports.ts';
import { startEmbeddedStore, type EmbeddedStore } from '../../../tools/local-host/embedded-store.ts';
import { embeddedStoreDocuments } from '../../../shared/wiring/dynamo-documents.ts';

const names = { keys: 'keys', projects: 'projects', generations: 'generations', counters: 'counters' };

function job(projectId: string, videoId: string, createdAt = '2025-03-01T10:00:00.000Z'): VideoJob {
  return { projectId, videoId, provider: 'openai', model: 'openai/sora-2', requestId: `req-${videoId}`, keyId: 'key_1', createdAt, video: { id: videoId, object: 'video', status: 'queued', seconds: '8' } };
}

describe('DynamoVideoJobs on the embedded store', () => {
  let directory: string;
  let store: EmbeddedStore;
  let jobs: DynamoVideoJobs;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'video-jobs-'));
    store = await startEmbeddedStore(directory, names);
    jobs = new DynamoVideoJobs(embeddedStoreDocuments(store.endpoint), { name: names.generations, retentionDays: 30 });
  });
  afterAll(async () => {
    await store?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("finds a project's job, and nothing for another project", async () => {
    await jobs.save(job('acme', 'video_a'));
    expect(await jobs.find('acme', 'video_a')).toEqual(job('acme', 'video_a'));
    expect(await jobs.find('globex', 'video_a')).toBeUndefined();
    expect(await jobs.find('acme', 'video_unknown')).toBeUndefined();
  });

  it("lists a project's jobs only", async () => {
    await jobs.save(job('acme', 'video_b'));
    await jobs.save(job('globex', 'video_c'));
    expect((await jobs.list('acme')).map((entry) => entry.videoId).sort()).toEqual(['video_a', 'video_b']);
    expect((await jobs.list('globex')).map((entry) => entry.videoId)).toEqual(['video_c']);
  });

  it('lets one caller claim the billing of a job, once, even when several race', async () => {
    const claims = await Promise.all([1, 2, 3, 4].map(() => jobs.claimBilling('acme', 'video_b', '2025-03-01T11:00:00.000Z')));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await jobs.find('acme', 'video_b'))?.billedAt).toBe('2025-03-01T11:00:00.000Z');
  });

  it('keeps a claim when a request that read the job before it saves its older copy (its later look, its deletion)', async () => {
    await jobs.save(job('acme', 'video_d'));
    const readBefore = await jobs.find('acme', 'video_d');
    expect(await jobs.claimBilling('acme', 'video_d', '2025-03-01T12:00:00.000Z')).toBe(true);
    await jobs.save({ ...readBefore!, deletedAt: '2025-03-01T12:00:01.000Z', video: { ...readBefore!.video, status: 'completed' } });
    expect(await jobs.find('acme', 'video_d')).toMatchObject({ billedAt: '2025-03-01T12:00:00.000Z', deletedAt: '2025-03-01T12:00:01.000Z', video: { status: 'completed' } });
    expect(await jobs.claimBilling('acme', 'video_d', '2025-03-01T12:00:02.000Z')).toBe(false);
  });

  it('claims nothing for a job it does not know', async () => {
    expect(await jobs.claimBilling('globex', 'video_a', '2025-03-01T11:00:00.000Z')).toBe(false);
    expect(await jobs.find('globex', 'video_a')).toBeUndefined();
  });
});
