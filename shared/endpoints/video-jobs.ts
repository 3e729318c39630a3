import { GatewayError } from '../core/errors.ts';
import type { ProviderConfig } from '../core/project-config.ts';
import { parseJsonObject } from '../core/json-object.ts';
import type { VideoJob } from '../core/ports.ts';
import { jsonResponse, type GatewayRequest, type GatewayResponse } from '../http/gateway-http.ts';
import { decodePathId } from '../http/path-id.ts';
import { admitRequest, readStore, type AdmittedRequest } from '../pipeline/admit-request.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import type { RouteContext } from '../pipeline/route-context.ts';
import { billFinishedVideo, releaseVideoHold } from './bill-finished-video.ts';
import { relayBytes } from '../transport/bytes-relay.ts';
import { callOwningProvider } from './call-owning-provider.ts';

export const VIDEOS_PREFIX = '/v1/videos/';
const DEFAULT_PAGE = 20;
const MAX_PAGE = 100;

/**
 * GET /v1/videos/{id}, DELETE /v1/videos/{id} and GET /v1/videos/{id}/content: passed through to the
 * provider that made the video, for the project that created it only (another project's video is not
 * found, as an unknown one). A job seen completed for the first time has its seconds recorded
 * (bill-finished-video.ts). Remixes, characters and extensions are not served.
 */
export async function handleVideoJob(request: GatewayRequest, services: GatewayServices, route: RouteContext): Promise<GatewayResponse> {
  const admitted = await admitRequest(request, services, 'videos.stored');
  const [encodedId = '', operation = '', ...rest] = request.path.slice(VIDEOS_PREFIX.length).replace(/\/+$/, '').split('/');
  const content = request.method === 'GET' && operation === 'content' && rest.length === 0;
  if (rest.length > 0 || (operation !== '' && !content)) {
    throw new GatewayError('not_found', `The gateway does not serve ${request.method} ${request.path}.`, { code: 'not_found' });
  }
  const { job, provider } = await findJob(services, admitted, decodePathId(encodedId, { noun: 'video', code: 'invalid_video_id', param: 'video_id' }));
  const query = request.query.toString();
  const called = await callOwningProvider(services, admitted, route, provider, {
    method: request.method,
    path: `/videos/${encodeURIComponent(job.videoId)}${content ? '/content' : ''}${query ? `?${query}` : ''}`,
    accept: '*/*',
  });
  if (called.refusal) return called.refusal;
  const { response } = called;
  const served = { 'x-gateway-provider': job.provider, 'x-gateway-model': job.model };
  if (content) {
    // Only a finished video has content: its seconds are those the job last showed (a refused download is no sign of one).
    if (response.ok) await billFinishedVideo(services, admitted, job, { ...job.video, status: 'completed' }, route);
    // Relayed as they come, within a generation stream's time limits: a provider silent too long cuts the body.
    const body = response.body ? relayBytes(response.body, called.relay()) : '';
    return { status: response.status, headers: { 'content-type': response.headers.get('content-type') ?? 'application/octet-stream', ...served }, body };
  }
  const text = await called.readText();
  const video = parseJsonObject(text);
  if (video && request.method === 'GET') {
    await saveQuietly(services, { ...job, video });
    await billFinishedVideo(services, admitted, job, video, route);
  }
  if (request.method === 'DELETE' && response.ok) {
    await saveQuietly(services, { ...job, deletedAt: new Date(services.clock.now()).toISOString() });
    // Last seen finished, it is billed (the provider made it); else its hold is given back, and it never is.
    if (job.video.status === 'completed') await billFinishedVideo(services, admitted, job, job.video, route);
    else await releaseVideoHold(services, admitted, job, route, 'deleted');
  }
  return { status: response.status, headers: { 'content-type': response.headers.get('content-type') ?? 'application/json', ...served }, body: text };
}

/**
 * GET /v1/videos: the project's own video jobs (never the provider's list, which holds every project's
 * videos made with the same provider key), newest first unless `order=asc`, as each was last seen, paged
 * with `after` and `limit` like OpenAI's list.
 */
export async function handleListVideos(request: GatewayRequest, services: GatewayServices): Promise<GatewayResponse> {
  const admitted = await admitRequest(request, services, 'videos.stored');
  const jobs = await readStore(() => services.videoJobs.list(admitted.config.project.projectId));
  const ascending = request.query.get('order') === 'asc';
  const sorted = jobs.filter((job) => !job.deletedAt).sort((a, b) => (ascending ? 1 : -1) * (a.createdAt.localeCompare(b.createdAt) || a.videoId.localeCompare(b.videoId)));
  const after = request.query.get('after');
  const start = after ? sorted.findIndex((job) => job.videoId === after) + 1 : 0;
  const limit = Math.min(MAX_PAGE, Math.max(1, Number(request.query.get('limit') ?? DEFAULT_PAGE) || DEFAULT_PAGE));
  const page = sorted.slice(start, start + limit);
  return jsonResponse(200, {
    object: 'list',
    data: page.map((job) => job.video),
    first_id: page[0]?.videoId ?? null,
    last_id: page.at(-1)?.videoId ?? null,
    has_more: start + limit < sorted.length,
  });
}

/** The project's job with this id, and the provider that made it (a job of a provider since removed is not found). */
async function findJob(services: GatewayServices, admitted: AdmittedRequest, videoId: string): Promise<{ job: VideoJob; provider: ProviderConfig }> {
  const job = await readStore(() => services.videoJobs.find(admitted.config.project.projectId, videoId));
  const provider = job ? admitted.config.providers.get(job.provider) : undefined;
  if (!job || !provider) {
    throw new GatewayError('not_found', `Video with id "${videoId}" not found among this project's videos.`, { code: 'video_not_found', param: 'video_id' });
  }
  return { job, provider };
}

/** What was seen of a job is a convenience for the list: failing to keep it fails nothing. */
async function saveQuietly(services: GatewayServices, job: VideoJob): Promise<void> {
  await services.videoJobs.save(job).catch(() => undefined);
}
