import type { VideoJob, VideoJobStore } from '../../shared/core/ports.ts';

/**
 * Video jobs in memory, for the in-memory request path of unit tests. The local host keeps them in its
 * embedded store with the DynamoDB adapter, as in AWS.
 */
export class MemoryVideoJobs implements VideoJobStore {
  private readonly jobs = new Map<string, VideoJob>();

  /** As the DynamoDB adapter: the job's fields, never its `billedAt`, which only claimBilling sets. */
  async save(job: VideoJob): Promise<void> {
    const key = `${job.projectId}/${job.videoId}`;
    const { billedAt: _claimedApart, ...fields } = structuredClone(job);
    const claimed = this.jobs.get(key)?.billedAt;
    this.jobs.set(key, { ...fields, ...(claimed ? { billedAt: claimed } : {}) });
  }

  async find(projectId: string, videoId: string): Promise<VideoJob | undefined> {
    const job = this.jobs.get(`${projectId}/${videoId}`);
    return job ? structuredClone(job) : undefined;
  }

  async list(projectId: string): Promise<VideoJob[]> {
    return [...this.jobs.values()].filter((job) => job.projectId === projectId).map((job) => structuredClone(job));
  }

  async claimBilling(projectId: string, videoId: string, at: string): Promise<boolean> {
    const job = this.jobs.get(`${projectId}/${videoId}`);
    if (!job || job.billedAt) return false;
    job.billedAt = at;
    return true;
  }
}
