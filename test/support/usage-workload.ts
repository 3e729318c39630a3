import type { UsageRecord } from '../../shared/core/usage-record.ts';
import { sampleRecord } from './sample-usage-record.ts';

/**
 * Deterministic randomness for the usage writer's chaos tests: a seed replays a run exactly.
 */
const PROJECTS = ['acme', 'globex', 'initech', 'umbrella', 'hooli', 'stark', 'wayne'];
const DAY_MS = 86_400_000;

/** mulberry32: a tiny deterministic PRNG, uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

export function shuffle<T>(items: T[], random: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

/** Records over seven projects and `days` days of March 2025; ~5% reuse the request id of an earlier record of their project. */
export function workload(count: number, random: () => number, days = 7) {
  const records: UsageRecord[] = [];
  const sharedRequestIds: [UsageRecord, UsageRecord][] = [];
  const reusable = new Map<string, UsageRecord[]>();
  for (let index = 0; index < count; index += 1) {
    const projectId = PROJECTS[Math.floor(random() * PROJECTS.length)] ?? 'acme';
    const costNanos = random() < 0.05 ? 0 : Math.floor(random() * 5_000_000_000);
    const candidates = reusable.get(projectId) ?? [];
    const earlier = random() < 0.05 && candidates.length > 0 ? candidates.splice(Math.floor(random() * candidates.length), 1)[0] : undefined;
    const createdAt = earlier
      ? new Date(Date.parse(earlier.createdAt) + 1_000 + Math.floor(random() * 600_000)).toISOString()
      : new Date(Date.parse('2025-03-01T00:00:00.000Z') + Math.floor(random() * days * DAY_MS)).toISOString();
    const record = sampleRecord({
      projectId,
      costNanos,
      createdAt,
      keyId: `key-${Math.floor(random() * 3)}`,
      model: random() < 0.5 ? 'openai/gpt-4o-mini' : 'anthropic/claude-sonnet',
      promptTokens: Math.floor(random() * 10_000),
      completionTokens: Math.floor(random() * 2_000),
      fallbackAttempts: random() < 0.1 ? 1 : 0,
      ...(earlier ? { requestId: earlier.requestId } : {}),
    });
    records.push(record);
    if (earlier) sharedRequestIds.push([earlier, record]);
    else reusable.set(projectId, [...candidates, record]);
  }
  return { records, sharedRequestIds };
}

export class InjectedFault extends Error {}

export type Fault = 'before' | 'after' | 'none';

/**
 * Decides each step's fault from the seed, the step, the thing it acts on and how many times that step ran
 * for it: `rate` of the calls fail, half before doing their work and half after (a crash between steps).
 */
export function faultPlan(seed: number, rate = 0.1) {
  const calls = new Map<string, number>();
  return (step: string, subject: string): Fault => {
    const key = `${step}:${subject}`;
    const call = (calls.get(key) ?? 0) + 1;
    calls.set(key, call);
    const draw = mulberry32(seed ^ fnv1a(`${key}:${call}`))();
    return draw < rate / 2 ? 'before' : draw < rate ? 'after' : 'none';
  };
}
