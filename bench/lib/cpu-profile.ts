import { readFile } from 'node:fs/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileShare {
  name: string;
  /** Share of the busy (non-idle) samples, 0–1. */
  share: number;
}

export interface ProfileSummary {
  busyMs: number;
  idleShare: number;
  /** Self time by where the code lives: a package, a project folder, Node internals, GC. */
  byArea: ProfileShare[];
  /** Self time of the busiest functions. */
  topFunctions: ProfileShare[];
  /** Inclusive time of a few named stages of the request path (a sample counts once per stage). */
  stages: ProfileShare[];
}

function area(url: string, functionName: string): string {
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)') return 'native / runtime (program)';
  if (!url) return `native: ${functionName || '(anonymous)'}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `npm: ${pkg[1]}`;
  if (url.startsWith('node:internal/deps/')) return `node: ${url.slice(5).split('/').slice(0, 3).join('/')}`;
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/').slice(0, 2).join('/')}`;
  const project = /\/(shared\/[^/]+|functions\/[^/]+|bench)\//.exec(url);
  if (project) return project[1] ?? url;
  return url.split('/').slice(-2).join('/');
}

/** Stages of interest: a sample belongs to a stage when one of its frames matches. */
const STAGES: Array<[string, (frame: ProfileNode['callFrame']) => boolean]> = [
  ['usage writer (writer handler, dynalite, LevelDB, transactional front)', (f) => /functions\/writer|node_modules\/(dynalite|classic-level|abstract-level|level-|lazy|once)|transactional-front|transact-write|local-usage-queue|file-usage-archive/.test(f.url)],
  ['AWS SDK (any client)', (f) => /node_modules\/@(aws-sdk|smithy)\//.test(f.url)],
  ['undici fetch to the upstream', (f) => /node:internal\/deps\/undici/.test(f.url)],
  ['zod parsing', (f) => /node_modules\/zod\//.test(f.url)],
  ['middy', (f) => /node_modules\/@middy\//.test(f.url)],
  ['local host HTTP server / function-URL emulation', (f) => /shared\/local\/(local-host|function-url-event|lambda-runtime-emulation)/.test(f.url)],
];

/** Reads a .cpuprofile written by `node --cpu-prof` and summarizes where the CPU went. */
export async function summarizeCpuProfile(file: string): Promise<ProfileSummary> {
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfTime = new Map<number, number>();
  let idle = 0;
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    const node = byId.get(id);
    if (node?.callFrame.functionName === '(idle)') idle += delta;
    else {
      busy += delta;
      selfTime.set(id, (selfTime.get(id) ?? 0) + delta);
    }
  });
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  const stages = new Map<string, number>();
  for (const [id, time] of selfTime) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = area(url, functionName);
    areas.set(where, (areas.get(where) ?? 0) + time);
    const fn = `${functionName || '(anonymous)'} ${url ? `${url.split('/').slice(-2).join('/')}:${lineNumber + 1}` : ''}`.trim();
    functions.set(fn, (functions.get(fn) ?? 0) + time);
    const matched = new Set<string>();
    for (let cursor: number | undefined = id; cursor !== undefined; cursor = parent.get(cursor)) {
      const frame = byId.get(cursor)?.callFrame;
      if (!frame) break;
      for (const [stage, test] of STAGES) if (!matched.has(stage) && test(frame)) matched.add(stage);
    }
    for (const stage of matched) stages.set(stage, (stages.get(stage) ?? 0) + time);
  }
  const ranked = (map: Map<string, number>, limit: number): ProfileShare[] =>
    [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, limit).map(([name, time]) => ({ name, share: busy ? time / busy : 0 }));
  return { busyMs: busy / 1000, idleShare: idle / (idle + busy || 1), byArea: ranked(areas, 15), topFunctions: ranked(functions, 15), stages: ranked(stages, STAGES.length) };
}
