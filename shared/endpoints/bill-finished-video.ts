import { billedSeconds } from '../core/billed-units.ts';
import { finishedVideoRecordId } from '../core/generation-view.ts';
import { effectiveRate } from '../core/project-config.ts';
import type { VideoJob } from '../core/ports.ts';
import { ZERO_USAGE } from '../core/token-usage.ts';
import type { AdmittedRequest } from '../pipeline/admit-request.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { createUsageSettlement, type AttemptOutcome } from '../pipeline/record-usage.ts';
import type { RouteContext } from '../pipeline/route-context.ts';

/**
 * The one usage record of a finished video: its seconds at the model's price, recorded the first time the
 * gateway sees the job completed (retrieving it or downloading its content), by whichever request of its
 * project that is. The job store lets one caller claim it; the record id, derived from the video id, makes
 * the writer apply it once even so. Recorded under the request and key that created the job, after the
 * answer (as every record), dated when the video was found finished. A video seen failed gets the same
 * record without a cost (releaseVideoHold).
 */
export async function billFinishedVideo(services: GatewayServices, admitted: AdmittedRequest, job: VideoJob, video: Record<string, unknown>, route: RouteContext): Promise<void> {
  if (job.billedAt) return;
  if (video.status === 'failed') return releaseVideoHold(services, admitted, job, route, 'failed');
  if (video.status !== 'completed') return;
  const seconds = billedSeconds(Number(video.seconds ?? job.video.seconds));
  await settleVideo(services, admitted, job, route, { status: 'completed', usage: { ...ZERO_USAGE, units: { videoSeconds: seconds } }, finishReason: 'completed', finish: 'stop' });
}

/**
 * A video that will never be billed (it failed, or was deleted before it was seen finished): its record
 * without a cost, which gives back what a prepaid project held for its seconds. The same record id as its
 * billing, so that the writer applies one of the two, once, whatever requests race to claim it.
 */
export async function releaseVideoHold(services: GatewayServices, admitted: AdmittedRequest, job: VideoJob, route: RouteContext, why: 'failed' | 'deleted'): Promise<void> {
  if (job.billedAt) return;
  await settleVideo(services, admitted, job, route, { status: why === 'failed' ? 'failed' : 'cancelled', usage: ZERO_USAGE, finishReason: why, finish: why === 'failed' ? 'error' : 'other' });
}

type VideoOutcome = Pick<AttemptOutcome, 'status' | 'usage' | 'finishReason' | 'finish'>;

/** The video's one closing record, claimed once in the job store and applied once by the writer (its record id). */
async function settleVideo(services: GatewayServices, admitted: AdmittedRequest, job: VideoJob, route: RouteContext, outcome: VideoOutcome): Promise<void> {
  const now = services.clock.now();
  if (!(await services.videoJobs.claimBilling(job.projectId, job.videoId, new Date(now).toISOString()))) return;
  const { config, orgRates } = admitted;
  const settlement = createUsageSettlement(
    services,
    {
      requestId: job.requestId,
      projectId: job.projectId,
      keyId: job.keyId,
      endpoint: 'videos',
      attribution: {},
      startedAt: now,
      // What the creation kept held for the seconds (a prepaid project's): the writer gives back what they did not cost.
      admission: { prepaid: config.project.prepaid === true, reservedNanos: job.heldNanos ?? 0, tokenCharge: undefined, headers: {} },
    },
    route.afterAnswer,
    finishedVideoRecordId(job.videoId),
  );
  await settlement.settle({
    model: job.model,
    provider: job.provider,
    rate: effectiveRate(job.model, config, orgRates),
    streamed: false,
    fallbackAttempts: 0,
    httpStatus: 200,
    upstreamId: job.videoId,
    ...outcome,
  });
}
