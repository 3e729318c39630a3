import { billedSeconds } from '../core/billed-units.ts';
import type { VideoJob } from '../core/ports.ts';
import { exactCost } from '../core/price-usage.ts';
import { ZERO_USAGE } from '../core/token-usage.ts';
import { readStore } from '../pipeline/admit-request.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import type { CreatedUpstreamObject, KeptUpstreamObject } from '../pipeline/generation-endpoint.ts';
import { videosApi } from '../protocols/openai-videos/videos-api.ts';
import { MAX_VIDEO_SECONDS, parseVideoCreateRequest, videoPromptText, videoSecondsBound } from '../protocols/openai-videos/videos-request.ts';
import { openAiApiEndpoint } from './openai-api-endpoint.ts';

/**
 * POST /v1/videos: a video job, created at an OpenAI-compatible provider for a video model, and remembered
 * for the project that created it before its id reaches the client (video-jobs.ts serves it from then on).
 */
export const videosEndpoint = {
  ...openAiApiEndpoint({
    name: 'videos',
    modelKinds: ['video'],
    parse: parseVideoCreateRequest,
    promptText: videoPromptText,
    maxOutputTokens: () => 0,
    unitsBound: videoSecondsBound,
    api: videosApi,
  }),
  keepCreated: rememberVideoJob,
};

/**
 * The job, remembered with what a prepaid project must keep holding for its seconds: their cost at the
 * model's price (the seconds the provider says it makes, else the most a video can have), within what the
 * request reserved. The creation's record gives back the rest; the finished video's record, the hold.
 */
async function rememberVideoJob(created: CreatedUpstreamObject, services: GatewayServices): Promise<KeptUpstreamObject> {
  const seconds = Number(created.payload.seconds);
  const bound = Number.isFinite(seconds) && seconds > 0 ? billedSeconds(seconds) : MAX_VIDEO_SECONDS;
  const secondsCost = Number(exactCost({ ...ZERO_USAGE, units: { videoSeconds: bound } }, created.target.rate));
  const heldNanos = Math.min(created.reservedNanos, secondsCost);
  const job: VideoJob = {
    projectId: created.projectId,
    videoId: created.upstreamId,
    provider: created.target.provider.provider,
    model: created.target.model.slug,
    requestId: created.requestId,
    keyId: created.keyId,
    createdAt: new Date(services.clock.now()).toISOString(),
    video: created.payload,
    ...(heldNanos > 0 ? { heldNanos } : {}),
  };
  // A job the gateway cannot remember could not be reached through it: the request fails with 503.
  await readStore(() => services.videoJobs.save(job));
  return { keptReservedNanos: heldNanos };
}
