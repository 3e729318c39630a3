import type { RouteTable } from '../pipeline/route-group.ts';
import { MODEL_API_METHODS } from './model-api-methods.ts';
import { runGeneration } from '../pipeline/run-generation.ts';
import { speechEndpoint, transcriptionsEndpoint, translationsEndpoint } from './audio.ts';
import { completionsEndpoint } from './completions.ts';
import { embeddingsEndpoint } from './embeddings.ts';
import { imageEditsEndpoint, imageGenerationsEndpoint } from './images.ts';
import { moderationsEndpoint } from './moderations.ts';
import { handlePassThrough } from './pass-through.ts';
import { rerankEndpoint } from './rerank.ts';
import { handleListVideos, handleVideoJob } from './video-jobs.ts';
import { videosEndpoint } from './videos.ts';

/**
 * The model endpoints beyond chat (each a spec of the one pipeline) and the pass-through: the OpenAI route
 * group loads them on first use.
 */
export const modelApiRoutes: RouteTable = {
  '/v1/completions': { POST: (request, services, route) => runGeneration(completionsEndpoint, request, services, route) },
  '/v1/embeddings': { POST: (request, services, route) => runGeneration(embeddingsEndpoint, request, services, route) },
  '/v1/audio/speech': { POST: (request, services, route) => runGeneration(speechEndpoint, request, services, route) },
  '/v1/audio/transcriptions': { POST: (request, services, route) => runGeneration(transcriptionsEndpoint, request, services, route) },
  '/v1/audio/translations': { POST: (request, services, route) => runGeneration(translationsEndpoint, request, services, route) },
  '/v1/images/generations': { POST: (request, services, route) => runGeneration(imageGenerationsEndpoint, request, services, route) },
  '/v1/images/edits': { POST: (request, services, route) => runGeneration(imageEditsEndpoint, request, services, route) },
  '/v1/moderations': { POST: (request, services, route) => runGeneration(moderationsEndpoint, request, services, route) },
  '/v1/rerank': { POST: (request, services, route) => runGeneration(rerankEndpoint, request, services, route) },
  '/v1/videos': { POST: (request, services, route) => runGeneration(videosEndpoint, request, services, route), GET: handleListVideos },
  '/v1/videos/*': { GET: handleVideoJob, DELETE: handleVideoJob },
  '/v1/*': Object.fromEntries((MODEL_API_METHODS['/v1/*'] ?? []).map((method) => [method, handlePassThrough])),
};
