/** How long and how often each phase runs: the full bench (~10 min) or the quick one (one to two minutes). */
export interface BenchPlan {
  mode: 'full' | 'quick';
  profile: boolean;
  latency: { seconds: number; rounds: number; warmupSeconds: number };
  throughput: { seconds: number; rounds: number; warmupSeconds: number; connections: number };
  /** Before the stream phases, per stream target: requests at c=1 this long, then one round of heavy streams (0: none). */
  streamWarmupSeconds: number;
  lightStreams: { concurrency: number; streamsPerWorker: number; staggerMs: number; rounds: number; skipFirst: boolean };
  heavyStreams: { concurrency: number; rounds: number };
  /** Rounds of 200 long streams (events each) through the gateway alone, for its memory. */
  memory: { rounds: number; events: number };
  coldStartRuns: number;
  /** Also bundle with the deployment's own bundler (infra/bundling), when present. */
  coldStartDeployed: boolean;
  writerRecords: number;
  withSqsVariant: boolean;
}

export const BENCH_USAGE = [
  'Usage: npm run bench [-- --quick] [-- --profile]',
  '',
  'Measures what the gateway adds over calling the provider directly, next to a bare Node proxy and Portkey,',
  'plus streaming, memory, cold start and the usage writer. Prints a report and writes',
  'bench/results/latest.json (docs/performance.md).',
  '',
  '  --quick     one to two minutes, for development: fewer and shorter rounds (default: about 10 minutes)',
  '  --profile   adds a CPU profile of the gateway under load (either mode)',
  '  -h, --help  this help',
].join('\n');

/** What `npm run bench -- …` asks for: a plan, this help, or a wrong word (nothing is started for either). */
export type BenchCommandLine = { kind: 'run'; plan: BenchPlan } | { kind: 'help'; text: string } | { kind: 'usage-error'; text: string };

export function parseBenchCommandLine(argv: string[]): BenchCommandLine {
  if (argv.includes('-h') || argv.includes('--help')) return { kind: 'help', text: BENCH_USAGE };
  const unknown = argv.find((word) => word !== '--quick' && word !== '--profile');
  if (unknown !== undefined) return { kind: 'usage-error', text: `error: unknown option ${JSON.stringify(unknown)} (npm run bench -- --help lists the options)` };
  return { kind: 'run', plan: planFor(argv) };
}

export function planFor(argv: string[]): BenchPlan {
  const quick = argv.includes('--quick');
  const profile = argv.includes('--profile');
  if (quick) {
    return {
      mode: 'quick',
      profile,
      latency: { seconds: 0.75, rounds: 2, warmupSeconds: 0.5 },
      throughput: { seconds: 0.75, rounds: 2, warmupSeconds: 0, connections: 64 },
      streamWarmupSeconds: 0,
      lightStreams: { concurrency: 10, streamsPerWorker: 1, staggerMs: 50, rounds: 1, skipFirst: true },
      heavyStreams: { concurrency: 200, rounds: 1 },
      memory: { rounds: 1, events: 120 },
      coldStartRuns: 2,
      coldStartDeployed: false,
      writerRecords: 200,
      withSqsVariant: false,
    };
  }
  return {
    mode: 'full',
    profile,
    // 30 s at c=1 per target: after 2 s the gateway's JIT was still compiling (its V8 helper threads used
    // ~230 µs of CPU per request, ~85 after 20-40 s), so the first rounds measured the warm-up.
    latency: { seconds: 4, rounds: 5, warmupSeconds: 30 },
    throughput: { seconds: 4, rounds: 5, warmupSeconds: 2, connections: 64 },
    streamWarmupSeconds: 30,
    lightStreams: { concurrency: 10, streamsPerWorker: 2, staggerMs: 128, rounds: 3, skipFirst: true },
    heavyStreams: { concurrency: 200, rounds: 3 },
    memory: { rounds: 2, events: 200 },
    coldStartRuns: 10,
    coldStartDeployed: true,
    writerRecords: 2000,
    withSqsVariant: true,
  };
}
