import type { ServerResponse } from 'node:http';
import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryLocalUsage } from '../../tools/cli/local-usage-query.ts';
import { makePng, readUpload } from '../support/binary-files.ts';
import { startFakeOpenAiUpstream, sendJson, type FakeUpstream, type ReceivedRequest } from '../support/fake-openai-upstream.ts';
import { generationOf } from '../support/generation-lookup.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

let gateway: TestGateway;
let upstream: FakeUpstream;
let key: string;
let otherKey: string;
let prepaidKey: string;

/** A provider's video jobs, as OpenAI's API shows them: queued when made, completed after two looks. */
const jobs = new Map<string, { video: Record<string, unknown>; looks: number; doomed: boolean }>();
const MP4 = Buffer.from([0x00, 0x00, 0x00, 0x18, 0x66, 0x74, 0x79, 0x70, 0x6d, 0x70, 0x34, 0x32, 0xff, 0xfe]);

function videoProvider(request: ReceivedRequest, response: ServerResponse): void {
  const [, , , id, operation] = request.path.split('?')[0]?.split('/') ?? [];
  if (request.method === 'POST' && !id) {
    const videoId = `video_${jobs.size + 1}abc`;
    const video = { id: videoId, object: 'video', model: 'sora-2', status: 'queued', progress: 0, created_at: 1_760_000_000 + jobs.size, completed_at: null, expires_at: null, error: null, prompt: 'p', remixed_from_video_id: null, seconds: '8', size: '720x1280' };
    // A prompt of "doomed" makes a job that fails.
    jobs.set(videoId, { video, looks: 0, doomed: request.body.prompt === 'doomed' });
    return sendJson(response, 200, video);
  }
  const job = jobs.get(id ?? '');
  if (!job) return sendJson(response, 404, { error: { message: 'Video not found', type: 'invalid_request_error', code: null, param: null } });
  if (request.method === 'DELETE') return sendJson(response, 200, { id, object: 'video.deleted', deleted: true });
  if (operation === 'content') return void response.writeHead(200, { 'content-type': 'video/mp4' }).end(MP4);
  job.looks += 1;
  const finished = job.looks >= 2;
  job.video = job.doomed
    ? { ...job.video, status: 'failed', error: { code: 'video_generation_failed', message: 'The video could not be made.' } }
    : { ...job.video, status: finished ? 'completed' : 'in_progress', progress: finished ? 100 : 40, completed_at: finished ? 1_760_000_100 : null };
  sendJson(response, 200, job.video);
}

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  upstream.answerWith(videoProvider);
  gateway = await startTestGateway();
  const keys: string[] = [];
  for (const projectId of ['studio', 'other', 'prepaid']) {
    await gateway.admin({ command: 'project.create', projectId });
    await gateway.admin({ command: 'provider.set', projectId, provider: 'openai', protocol: 'openai', baseUrl: upstream.baseUrl, apiKey: 'sk-upstream-video-0123456789' });
    await gateway.admin({ command: 'model.allow', projectId, slug: 'openai/sora-2', kind: 'video', videoSecondMicros: 100_000, requestMicros: 10 });
    keys.push((await gateway.admin<{ key: string }>({ command: 'key.create', projectId })).key);
  }
  [key = '', otherKey = '', prepaidKey = ''] = keys;
  // 0.5 USD covers 5 seconds of video, not 8.
  await gateway.admin({ command: 'project.update', projectId: 'prepaid', balanceUsd: '0.5' });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

const call = (path: string, init: RequestInit & { apiKey?: string } = {}) =>
  fetch(`${gateway.url}${path}`, { ...init, headers: { authorization: `Bearer ${init.apiKey ?? key}`, ...(init.headers as Record<string, string>) } });

async function createVideo(requestId: string, apiKey = key): Promise<Response> {
  return call('/v1/videos', { apiKey, method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': requestId }, body: JSON.stringify({ model: 'openai/sora-2', prompt: 'A calico cat playing a piano', seconds: '8', route: 'fallback' }) });
}

describe('/v1/videos over plain HTTP', () => {
  it('creates a job at the provider, remembered for the project before the answer, billing only the request', async () => {
    const created = await createVideo('video-create');
    expect(created.status).toBe(200);
    const video = (await created.json()) as { id: string; status: string };
    expect(video.status).toBe('queued');
    expect(upstream.received.at(-1)).toMatchObject({ method: 'POST', path: '/v1/videos', body: { model: 'sora-2', prompt: 'A calico cat playing a piano', seconds: '8' } });
    expect(upstream.received.at(-1)?.body).not.toHaveProperty('route');

    // Known at once: retrieved right after creation.
    const retrieved = await call(`/v1/videos/${video.id}`);
    expect(retrieved.status).toBe(200);
    expect(await retrieved.json()).toMatchObject({ id: video.id, status: 'in_progress' });
    const record = await generationOf(gateway, key, 'video-create');
    expect(record).toMatchObject({ endpoint: 'videos', status: 'completed', upstream_id: video.id, billed_units: { requests: 1 }, tokens_prompt: 0, estimated: false });
    expect(record.total_cost).toBe(0.00001);
  });

  it('records the seconds of a finished video once, the first time it is seen completed', async () => {
    const video = (await (await createVideo('video-bill')).json()) as { id: string };
    expect(((await (await call(`/v1/videos/${video.id}`)).json()) as { status: string }).status).toBe('in_progress');
    expect(((await (await call(`/v1/videos/${video.id}`)).json()) as { status: string }).status).toBe('completed');
    await call(`/v1/videos/${video.id}`);
    await call(`/v1/videos/${video.id}/content`);

    await gateway.host.drainUsage();
    const rows = await queryLocalUsage(gateway.host.dataDir, "SELECT units_video_seconds, cost_nanos, id FROM usage_records WHERE id = 'video-bill' AND units_video_seconds IS NOT NULL");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ units_video_seconds: 8, id: 'video-bill' });
    // 8 seconds at 100,000 micro-USD.
    expect(Number(rows[0]?.cost_nanos)).toBe(800_000_000);
    // The generation shows the whole video now, its request and its seconds, by request id and by video id alike.
    const whole = { id: 'video-bill', upstream_id: video.id, billed_units: { requests: 1, video_seconds: 8 }, total_cost: 0.80001 };
    expect(await generationOf(gateway, key, 'video-bill')).toMatchObject(whole);
    expect(await generationOf(gateway, key, video.id)).toMatchObject(whole);
  });

  it('downloads the content as the provider sends it', async () => {
    const video = (await (await createVideo('video-content')).json()) as { id: string };
    const response = await call(`/v1/videos/${video.id}/content?variant=video`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(MP4);
    expect(upstream.received.at(-1)?.path).toBe(`/v1/videos/${video.id}/content?variant=video`);
  });

  it("answers 404 to another project, as for an unknown video, without asking the provider", async () => {
    const video = (await (await createVideo('video-private')).json()) as { id: string };
    const before = upstream.received.length;
    for (const path of [`/v1/videos/${video.id}`, `/v1/videos/${video.id}/content`]) {
      const response = await call(path, { apiKey: otherKey });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'video_not_found' } });
    }
    expect((await call(`/v1/videos/${video.id}`, { apiKey: otherKey, method: 'DELETE' })).status).toBe(404);
    expect(upstream.received.length).toBe(before);
  });

  it("lists the project's own videos only, newest first, and no longer a deleted one", async () => {
    const first = (await (await createVideo('video-list-1')).json()) as { id: string };
    const second = (await (await createVideo('video-list-2')).json()) as { id: string };
    await createVideo('video-list-other', otherKey);

    const listed = (await (await call('/v1/videos?limit=2')).json()) as { object: string; data: Array<{ id: string }>; has_more: boolean; first_id: string };
    expect(listed.object).toBe('list');
    expect(listed.data.map((video) => video.id)).toEqual([second.id, first.id]);
    expect(listed.has_more).toBe(true);

    const deleted = await call(`/v1/videos/${second.id}`, { method: 'DELETE' });
    expect(await deleted.json()).toEqual({ id: second.id, object: 'video.deleted', deleted: true });
    const after = (await (await call('/v1/videos')).json()) as { data: Array<{ id: string }> };
    expect(after.data.map((video) => video.id)).not.toContain(second.id);
    const others = (await (await call('/v1/videos', { apiKey: otherKey })).json()) as { data: Array<{ id: string }> };
    expect(others.data.map((video) => video.id)).not.toContain(first.id);
  });

  it('refuses a prepaid project with 402 when its balance cannot cover the seconds asked for', async () => {
    const response = await createVideo('video-prepaid', prepaidKey);
    expect(response.status).toBe(402);
    expect(await response.json()).toMatchObject({ error: { code: 'insufficient_balance' } });
  });

  it('holds a prepaid balance for each video’s seconds until they are billed, so videos made one after another cannot take it below zero', async () => {
    await gateway.admin({ command: 'project.create', projectId: 'prepaid-hold' });
    await gateway.admin({ command: 'provider.set', projectId: 'prepaid-hold', provider: 'openai', protocol: 'openai', baseUrl: upstream.baseUrl, apiKey: 'sk-upstream-video-0123456789' });
    await gateway.admin({ command: 'model.allow', projectId: 'prepaid-hold', slug: 'openai/sora-2', kind: 'video', videoSecondMicros: 100_000, requestMicros: 10 });
    const holdKey = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'prepaid-hold' })).key;
    // 2 USD: room for two 8-second videos at 0.8 USD (and 0.00001 a request), not three.
    await gateway.admin({ command: 'project.update', projectId: 'prepaid-hold', balanceUsd: '2' });
    const project = () => gateway.admin<{ balance_usd: string; reserved_usd: string; spent_usd: string }>({ command: 'project.get', projectId: 'prepaid-hold' });

    const first = (await (await createVideo('hold-1', holdKey)).json()) as { id: string };
    const second = (await (await createVideo('hold-2', holdKey)).json()) as { id: string };
    await gateway.host.drainUsage();
    expect(await project()).toMatchObject({ balance_usd: '0.39998', reserved_usd: '1.6' });
    const third = await createVideo('hold-3', holdKey);
    expect(third.status).toBe(402);

    // The first finishes (billed its seconds from the hold), the second is deleted unfinished (its hold given back).
    for (let look = 0; look < 2; look += 1) await call(`/v1/videos/${first.id}`, { apiKey: holdKey });
    expect((await call(`/v1/videos/${second.id}`, { apiKey: holdKey, method: 'DELETE' })).status).toBe(200);
    await gateway.host.drainUsage();
    expect(await project()).toMatchObject({ balance_usd: '1.19998', reserved_usd: '0', spent_usd: '0.80002' });

    // One that fails gives its hold back when it is seen failed: only its request is billed.
    const doomed = await call('/v1/videos', { apiKey: holdKey, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'openai/sora-2', prompt: 'doomed', seconds: '8' }) });
    const { id } = (await doomed.json()) as { id: string };
    expect(await call(`/v1/videos/${id}`, { apiKey: holdKey }).then((response) => response.json())).toMatchObject({ status: 'failed' });
    await gateway.host.drainUsage();
    expect(await project()).toMatchObject({ balance_usd: '1.19997', reserved_usd: '0', spent_usd: '0.80003' });
  });

  it('does not serve remixes', async () => {
    expect((await call('/v1/videos/video_1abc/remix', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(405);
  });
});

describe('/v1/videos through the openai SDK', () => {
  it('creates a video with a reference image that arrives byte for byte, then retrieves and lists it', async () => {
    const client = gateway.openai(key);
    const reference = makePng(72, 128);

    const video = await client.videos.create({ model: 'openai/sora-2', prompt: 'Wide shot of a lighthouse', seconds: '4', input_reference: await toFile(reference, 'ref.png', { type: 'image/png' }) });

    const received = upstream.received.at(-1);
    const upload = await readUpload(received?.raw ?? Buffer.alloc(0), received?.headers['content-type']);
    expect(upload.get('model')).toEqual(['sora-2']);
    expect(upload.get('input_reference')).toEqual([{ filename: 'ref.png', type: 'image/png', bytes: reference }]);
    expect((await client.videos.retrieve(video.id)).id).toBe(video.id);
    const page = await client.videos.list({ limit: 50 });
    expect(page.data.map((entry) => entry.id)).toContain(video.id);
  });
});
