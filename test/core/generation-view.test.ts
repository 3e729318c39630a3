import { describe, expect, it } from 'vitest';
import { finishedVideoRecordId, generationView } from '../../shared/core/generation-view.ts';
import { sampleRecord } from '../support/sample-usage-record.ts';

const requestId = 'req-video';
const creation = sampleRecord({
  requestId,
  endpoint: 'videos',
  model: 'openai/sora-2',
  upstreamId: 'video_1',
  answerId: 'video_1',
  promptTokens: 0,
  completionTokens: 0,
  costNanos: 10_000_000,
  units: { requests: 1 },
  latencyMs: 420,
  createdAt: '2025-03-01T10:00:00.000Z',
});
const finished = sampleRecord({
  recordId: finishedVideoRecordId('video_1'),
  requestId,
  endpoint: 'videos',
  model: 'openai/sora-2',
  upstreamId: 'video_1',
  finishReason: 'completed',
  promptTokens: 0,
  completionTokens: 0,
  costNanos: 400_000_000,
  units: { videoSeconds: 4 },
  latencyMs: 0,
  createdAt: '2025-03-01T10:05:00.000Z',
});

describe('generationView', () => {
  it("shows a finished video's generation whole: the creation's record, its request and seconds and their costs added", () => {
    expect(generationView([finished, creation])).toEqual({ ...creation, costNanos: 410_000_000, units: { requests: 1, videoSeconds: 4 } });
  });

  it('shows the same whole generation when the creation is the record asked for (found by the video id)', () => {
    expect(generationView([creation, finished], creation.recordId)).toEqual(generationView([creation, finished]));
  });

  it('shows a video not finished yet as its creation alone', () => {
    expect(generationView([creation])).toEqual(creation);
  });

  it("shows a reused request id's latest record, and a video created under it with its own finished record only", () => {
    const other = sampleRecord({ ...creation, recordId: 'rec-00000000000other', upstreamId: 'video_2', answerId: 'video_2', createdAt: '2025-03-01T10:02:00.000Z' });
    const chat = sampleRecord({ requestId, createdAt: '2025-03-01T10:06:00.000Z' });

    expect(generationView([creation, other])).toEqual(other);
    expect(generationView([creation, other, finished])).toEqual({ ...creation, costNanos: 410_000_000, units: { requests: 1, videoSeconds: 4 } });
    expect(generationView([creation, other, finished, chat])).toEqual(chat);
  });

  it('answers undefined for no records', () => {
    expect(generationView([])).toBeUndefined();
  });
});
