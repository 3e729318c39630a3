import type { ColdStartResults } from './cold-start.ts';
import type { ProfileSummary } from './cpu-profile.ts';
import type { HttpTargetFigures } from './http-phase.ts';
import type { GatewayMemory } from './memory-phase.ts';
import type { Summary } from './stats.ts';
import type { StreamRunSpec, StreamTargetFigures } from './stream-phase.ts';

/** The shape of bench/results/latest.json. */
export interface BenchResults {
  version: 1;
  generatedAt: string;
  mode: 'full' | 'quick';
  durationSeconds: number;
  machine: { cpus: number; cpuModel: string; node: string; platform: string; pinnedCore: string | null; pinning: string };
  notes: string[];
  nonStreaming: { concurrency1: HttpTargetFigures[]; concurrency64: HttpTargetFigures[]; seconds: number; rounds: number };
  streaming: {
    upstream: { events: number; gapMs: number };
    light: { spec: StreamRunSpec; rounds: number; figures: StreamTargetFigures[] };
    concurrent: { spec: StreamRunSpec; rounds: number; figures: StreamTargetFigures[] };
  };
  memory: GatewayMemory & { streamEvents: number };
  usageBacklog: { requestsServed: number; usageRecordsWritten: number; backlog: number };
  coldStart: ColdStartResults;
  writer: WriterFigures | { skipped: string };
  portkey: { version: string; streaming: string } | { skipped: string };
  profile?: { concurrency: number; seconds: number; requests: number; summary: ProfileSummary; file?: string | undefined } | { skipped: string };
  targets: TargetCheck[];
}

export interface WriterRun {
  parallel: number;
  records: number;
  seconds: number;
  perSecond: number;
  failures: number;
}

export interface WriterFigures {
  batchSize: number;
  results: WriterRun[];
  ledgerOnly: WriterRun;
  archiveOnly: WriterRun;
  reportedFailures: number;
}

export interface TargetCheck {
  id: string;
  target: string;
  measured: string;
  /** null when it could not be measured in this run. */
  met: boolean | null;
  note?: string;
}
