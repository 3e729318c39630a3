import { GatewayError, toGatewayError } from '../core/errors.ts';
import type { RouteTarget } from '../core/plan-route.ts';
import type { UpstreamRequest } from '../protocols/bridge.ts';
import { readBeforeDeadline } from '../transport/answer-time-limits.ts';
import {
  isCredentialRefusal,
  isGatewaySideUpstreamStatus,
  readUpstreamErrorAnswer,
  upstreamAnswerToGatewayError,
  type UpstreamErrorAnswer,
} from '../transport/upstream-errors.ts';
import { callProvider } from './call-provider.ts';
import type { GatewayServices } from './gateway-services.ts';

export interface AttemptFailure {
  target: RouteTarget;
  error: GatewayError;
  /**
   * The upstream's own error answer, when it gave one whose words a client may see (protocols that pass
   * upstream errors through need it). None for a refused credential (401/403): the gateway's error stands.
   */
  answer?: UpstreamErrorAnswer;
}

/** The upstream that answered (success, or a 4xx about the client's request) and the attempts before it. */
export interface ServedAttempt {
  target: RouteTarget;
  response: Response;
  apiKey: string | undefined;
  failures: AttemptFailure[];
  /** Lets the upstream's exchange go, body included (a body still coming at the request's deadline). */
  abort(reason: unknown): void;
  /** The upstream's refusal of the client's request, already read (and its body consumed) when the response is not ok. */
  rejection?: UpstreamErrorAnswer;
}

/** Every target failed: the last failure's status, a message listing each attempt, and the attempts for metering. */
export class AttemptsExhaustedError extends GatewayError {
  readonly failures: AttemptFailure[];

  constructor(failures: AttemptFailure[]) {
    const last = failures.at(-1) as AttemptFailure;
    const message =
      failures.length === 1
        ? last.error.message
        : `All ${failures.length} attempts failed: ${failures.map(({ target, error }) => `"${target.model.slug}": ${error.message}`).join(' | ')}`;
    super(last.error.kind, message, { code: last.error.code, status: last.error.status, headers: last.error.headers, cause: last.error });
    this.failures = failures;
  }
}

export interface AttemptOptions {
  services: GatewayServices;
  projectId: string;
  firstByteTimeoutMs: number;
  deadlineAt: number;
  /** Told of each target before it is tried (metering records a failure against the target in progress). */
  onAttempt?: (target: RouteTarget, failuresSoFar: number) => void;
}

/**
 * Tries the targets in order until one answers: an upstream 401/403/429/5xx (as the upstream protocol
 * reads its error: Bedrock's model-not-ready is a 503), a connection failure or a time-out moves on to
 * the next target (and cools the failed one down); anything else is the answer.
 * Nothing has reached the client yet, so every failure can still be retried elsewhere. Building a
 * target's request is the client's business: a body that cannot be translated fails the request at once
 * and never demotes a model.
 */
export async function tryTargets(
  targets: readonly RouteTarget[],
  requestFor: (target: RouteTarget) => UpstreamRequest,
  options: AttemptOptions,
): Promise<ServedAttempt> {
  const { services } = options;
  const failures: AttemptFailure[] = [];
  for (const target of targets) {
    const remainingMs = options.deadlineAt - services.clock.now();
    if (remainingMs <= 0) {
      failures.push({ target, error: new GatewayError('upstream', 'The request deadline passed before this target could be tried.', { code: 'deadline_exceeded' }) });
      break;
    }
    options.onAttempt?.(target, failures.length);
    const request = requestFor(target);
    const provider = target.provider.provider;
    const exchange = new AbortController();
    const abort = (reason: unknown) => exchange.abort(reason);
    try {
      const { response, apiKey } = await callProvider(services, options.projectId, target.provider, request, Math.min(options.firstByteTimeoutMs, remainingMs), exchange);
      if (response.ok) return { target, response, apiKey, failures, abort };
      // An error body is bounded by the request's deadline as any body is: one that never ends is a time-out.
      const read = await readBeforeDeadline(readUpstreamErrorAnswer(response, apiKey), { remainingMs: options.deadlineAt - services.clock.now(), provider, abort });
      const answer = request.interpretError?.(read) ?? read;
      if (!isGatewaySideUpstreamStatus(answer.status)) return { target, response, apiKey, failures, abort, rejection: answer };
      const error = upstreamAnswerToGatewayError(answer, provider, target.provider.auth === 'aws-sigv4' ? 'aws' : 'key');
      failures.push({ target, error, ...(isCredentialRefusal(answer.status) ? {} : { answer }) });
      if (answer.status === 429 || answer.status >= 500) services.coolDown.markFailed(coolDownKey(options.projectId, target.model.slug));
    } catch (thrown) {
      const error = toGatewayError(thrown);
      if (error.kind === 'config_unavailable') throw error;
      failures.push({ target, error });
      services.coolDown.markFailed(coolDownKey(options.projectId, target.model.slug));
    }
  }
  throw new AttemptsExhaustedError(failures);
}

/**
 * Cool-down is per project: a 429 is usually the project's own provider account hitting its limits, which
 * says nothing about other projects' keys for the same provider.
 */
export function coolDownKey(projectId: string, slug: string): string {
  return `${projectId}/${slug}`;
}
