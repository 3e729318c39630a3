import type { VideoJob } from '../core/ports.ts';
import { readStore } from '../pipeline/admit-request.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import type { CreatedUpstreamObject } from '../pipeline/generation-endpoint.ts';
import { videosApi } from '../protocols/openai-videos/videos-api.ts';
import { parseVideoCreateRequest, videoPromptText, videoSecondsBound } from '../protocols/openai-videos/videos-request.ts';
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

async function rememberVideoJob(created: CreatedUpstreamObject, services: GatewayServices): Promise<void> {
  const job: VideoJob = {
    projectId: created.projectId,
    videoId: created.upstreamId,
    provider: created.target.provider.provider,
    model: created.target.model.slug,
    requestId: created.requestId,
    keyId: created.keyId,
    createdAt: new Date(services.clock.now()).toISOString(),
    video: created.payload,
  };
  // A job the gateway cannot remember could not be reached through it: the request fails with 503.
  await readStore(() => services.videoJobs.save(job));
}
