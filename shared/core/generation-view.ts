import { createHash } from 'node:crypto';
import { addUnits, hasUnits } from './billed-units.ts';
import type { UsageRecord } from './usage-record.ts';

/**
 * The record id of a video's completion: the same whoever records it, so the writer applies it once. It is
 * recorded under the request id that created the video, beside that request's own record.
 */
export function finishedVideoRecordId(videoId: string): string {
  return `rec-${createHash('sha256').update(`video:${videoId}`).digest('hex').slice(0, 48)}`;
}

/** The record id that completes a record's generation: a video creation's finished record, else none. */
export function completingRecordId(record: UsageRecord): string | undefined {
  if (record.endpoint !== 'videos' || record.upstreamId === undefined) return undefined;
  const finishedId = finishedVideoRecordId(record.upstreamId);
  return finishedId === record.recordId ? undefined : finishedId;
}

/**
 * The generation `GET /v1/generation` shows from records of one request id: the latest (a reused
 * X-Request-ID has several), or the one with `recordId`. A video is billed in two records, its request
 * when created and its seconds when found finished (under the creating request's id): either shows the
 * whole generation: the creation's record with the finished one's cost and units (its seconds) added.
 */
export function generationView(records: readonly UsageRecord[], recordId?: string): UsageRecord | undefined {
  const sorted = [...records].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const shown = recordId === undefined ? sorted.at(-1) : sorted.find((record) => record.recordId === recordId);
  if (shown?.endpoint !== 'videos' || shown.upstreamId === undefined) return shown;
  const finishedId = finishedVideoRecordId(shown.upstreamId);
  const finished = sorted.find((record) => record.recordId === finishedId);
  const creation = sorted.find((record) => record.endpoint === 'videos' && record.upstreamId === shown.upstreamId && record.recordId !== finishedId);
  return creation && finished ? withFinishedVideo(creation, finished) : shown;
}

function withFinishedVideo(creation: UsageRecord, finished: UsageRecord): UsageRecord {
  const units = addUnits(creation.units, finished.units);
  return {
    ...creation,
    costNanos: creation.costNanos + finished.costNanos,
    ...(hasUnits(units) ? { units } : {}),
  };
}
