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
import { isUnusableAnswer } from './invalid-answer.ts';

export interface AttemptFailure {
  target: RouteTarget;
  error: GatewayError;
  /**
   * The upstream's own error answer, when it gave one whose words a client may see (protocols that pass
   * upstream errors through need it). None for a refused credential (401/403): the gateway's error stands.
   */
  answer?: UpstreamErrorAnswer;
  /** The upstream answered 200 with something that is no answer: it took the request (and may bill its prompt). */
  tookRequest?: boolean;
}

/** The upstream that answered (success, or a 4xx about the client's request) and the attempts before it. */
export interface ServedAttempt<Answer = unknown> {
  target: RouteTarget;
  response: Response;
  apiKey: string | undefined;
  failures: AttemptFailure[];
  /** Lets the upstream's exchange go, body included (a body still coming at the request's deadline). */
  abort(reason: unknown): void;
  /** The upstream's refusal of the client's request, already read (and its body consumed) when the response is not ok. */
  rejection?: UpstreamErrorAnswer;
  /** What `readAnswer` made of a successful response. */
  answer?: Answer;
}

/**
 * Every target failed, or the request deadline passed before the next could be tried: the last failure's
 * status (`deadline_exceeded` when the deadline ended the attempts), a message listing each attempt, and the
 * attempts for metering.
 */
export class AttemptsExhaustedError extends GatewayError {
  /** The targets tried, each with its failure: a target the deadline left untried is none of them. */
  readonly failures: AttemptFailure[];
  /** The target the request deadline left untried, when it ended the attempts. */
  readonly untried: RouteTarget | undefined;

  constructor(failures: AttemptFailure[], untried?: RouteTarget) {
    // The status and code are the deadline's when it ended the attempts, else the last attempt's.
    const ending = untried ? new GatewayError('upstream', 'The request deadline passed.', { code: 'deadline_exceeded' }) : (failures.at(-1) as AttemptFailure).error;
    super(ending.kind, exhaustedMessage(failures, untried), { code: ending.code, status: ending.status, headers: ending.headers, cause: failures.at(-1)?.error ?? ending });
    this.failures = failures;
    this.untried = untried;
  }
}

function exhaustedMessage(failures: readonly AttemptFailure[], untried: RouteTarget | undefined): string {
  const listed = failures.map(({ target, error }) => `"${target.model.slug}": ${error.message}`).join(' | ');
  if (untried) {
    const slug = untried.model.slug;
    if (failures.length === 0) return `The request deadline passed before "${slug}" could be tried.`;
    return `${failures.length} ${failures.length === 1 ? 'attempt' : 'attempts'} failed; the request deadline passed before "${slug}" could be tried: ${listed}`;
  }
  return failures.length === 1 ? (failures[0] as AttemptFailure).error.message : `All ${failures.length} attempts failed: ${listed}`;
}

export interface AttemptOptions<Answer> {
  services: GatewayServices;
  projectId: string;
  firstByteTimeoutMs: number;
  deadlineAt: number;
  /** Told of each target before it is tried (metering records a failure against the target in progress). */
  onAttempt?: (target: RouteTarget, failuresSoFar: number) => void;
  /**
   * Reads a successful response before the attempts stop (a complete answer, whole): a 200 that is no
   * answer (invalid-answer.ts) moves on to the next target like a 5xx; anything else it throws ends them.
   */
  readAnswer?: (served: ServedAttempt) => Promise<Answer>;
}

/**
 * Tries the targets in order until one answers: an upstream 401/403/408/429/5xx (as the upstream protocol
 * reads its error: Bedrock's model-not-ready is a 503), a 200 that is no answer of its protocol, a
 * connection failure or a time-out moves on to the next target (and cools the failed one down); anything
 * else is the answer.
 * Nothing has reached the client yet, so every failure can still be retried elsewhere. Building a
 * target's request is the client's business: a body that cannot be translated fails the request at once
 * and never demotes a model.
 */
export async function tryTargets<Answer = never>(
  targets: readonly RouteTarget[],
  requestFor: (target: RouteTarget) => UpstreamRequest,
  options: AttemptOptions<Answer>,
): Promise<ServedAttempt<Answer>> {
  const { services } = options;
  const failures: AttemptFailure[] = [];
  const coolDown = (target: RouteTarget) => services.coolDown.markFailed(coolDownKey(options.projectId, target.model.slug));
  for (const target of targets) {
    const remainingMs = options.deadlineAt - services.clock.now();
    if (remainingMs <= 0) throw new AttemptsExhaustedError(failures, target);
    options.onAttempt?.(target, failures.length);
    const request = requestFor(target);
    const provider = target.provider.provider;
    let served: ServedAttempt<Answer> | undefined;
    const exchange = new AbortController();
    const abort = (reason: unknown) => exchange.abort(reason);
    try {
      const { response, apiKey } = await callProvider(services, options.projectId, target.provider, request, Math.min(options.firstByteTimeoutMs, remainingMs), exchange);
      if (response.ok) served = { target, response, apiKey, failures, abort };
      else {
        // An error body is bounded by the request's deadline as every body is: one that never ends is a time-out.
        const read = await readBeforeDeadline(readUpstreamErrorAnswer(response, apiKey), { remainingMs: options.deadlineAt - services.clock.now(), provider, abort });
        const answer = request.interpretError?.(read) ?? read;
        if (!isGatewaySideUpstreamStatus(answer.status)) return { target, response, apiKey, failures, abort, rejection: answer };
        const error = upstreamAnswerToGatewayError(answer, provider, target.provider.auth === 'aws-sigv4' ? 'aws' : 'key');
        failures.push({ target, error, ...(isCredentialRefusal(answer.status) ? {} : { answer }) });
        if (answer.status === 408 || answer.status === 429 || answer.status >= 500) coolDown(target);
      }
    } catch (thrown) {
      const error = toGatewayError(thrown);
      if (error.kind === 'config_unavailable') throw error;
      failures.push({ target, error });
      coolDown(target);
    }
    if (!served) continue;
    if (!options.readAnswer) return served;
    try {
      return { ...served, answer: await options.readAnswer(served) };
    } catch (thrown) {
      // A 200 that held no answer, or whose body broke off while read whole: nothing reached the client yet.
      if (!isUnusableAnswer(thrown)) throw thrown;
      failures.push({ target, error: thrown, tookRequest: true });
      coolDown(target);
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
