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
  /** Busy time by part of the gateway: each sample goes to the nearest project file or package on its stack. */
  byPart: ProfileShare[];
  /** The same, by that nearest project file or package (finer). */
  byOwner: ProfileShare[];
  /** Self time of the busiest functions. */
  topFunctions: ProfileShare[];
}

/** The project file (shared/…, functions/…) or npm package a frame belongs to; undefined for Node's own code. */
function ownerOf(url: string): string | undefined {
  const project = /\/((?:shared|functions|bench)\/.+)$/.exec(url);
  if (project && !url.includes('/node_modules/')) return project[1];
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  return pkg ? `npm:${pkg[1]}` : undefined;
}

/** Parts of the request path, by owner (checked in order). */
const PARTS: Array<[string, RegExp]> = [
  ['usage writer (local queue, writer handler, embedded store, usage files)', /^(shared\/local\/(local-usage-queue|transactional-front|transact-write|store-connection|in-process)|functions\/writer|shared\/metering\/process-usage|shared\/adapters\/|npm:(dynalite|classic-level|abstract-level|level-|memory-level|lazy|big\.js|@smithy|@aws-sdk|bowser))/],
  ['upstream call (fetch / undici)', /^(shared\/wiring\/create-gateway-services|shared\/upstream\/call-upstream|node:undici)/],
  ['local host (HTTP server, function-URL event, response stream)', /^(shared\/local\/|node:http-server)/],
  ['middy', /^npm:@middy\//],
  ['gateway logic (keys, routing, admission, metering, protocol)', /^(shared\/|functions\/openai|npm:zod)/],
  ['profiler overhead (bench probe)', /^bench\//],
];

/** For samples in Node's own code only: what it was doing (the sample's outermost frames). */
function nodeOnlyPart(frames: ProfileNode['callFrame'][]): string {
  const names = frames.map((frame) => `${frame.functionName} ${frame.url}`).join(' | ');
  if (/garbage collector/.test(names)) return 'GC';
  if (/undici|writeIterable/.test(names)) return 'upstream call (fetch / undici)';
  if (/_http_server|parserOnIncoming|connectionCorkNT|_http_outgoing/.test(names)) return 'local host (HTTP server, function-URL event, response stream)';
  return 'Node internals not attributable (I/O callbacks, microtasks, streams)';
}

/** Reads a .cpuprofile (V8 sampling profiler) and summarizes where the CPU went. */
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
    if (byId.get(id)?.callFrame.functionName === '(idle)') idle += delta;
    else {
      busy += delta;
      selfTime.set(id, (selfTime.get(id) ?? 0) + delta);
    }
  });
  const parts = new Map<string, number>();
  const owners = new Map<string, number>();
  const functions = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, time: number) => map.set(key, (map.get(key) ?? 0) + time);
  for (const [id, time] of selfTime) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    add(functions, `${frame.functionName || '(anonymous)'} ${frame.url ? `${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}` : ''}`.trim(), time);
    const stack: ProfileNode['callFrame'][] = [];
    let owner: string | undefined;
    for (let cursor: number | undefined = id; cursor !== undefined && owner === undefined; cursor = parent.get(cursor)) {
      const current = byId.get(cursor)?.callFrame;
      if (!current) break;
      stack.push(current);
      owner = ownerOf(current.url);
      if (!owner && /internal\/deps\/undici/.test(current.url)) owner = 'node:undici';
      if (!owner && /node:_http_server/.test(current.url)) owner = 'node:http-server';
    }
    add(owners, owner ?? 'node (no project frame on the stack)', time);
    const part = owner ? PARTS.find(([, pattern]) => pattern.test(owner))?.[0] ?? 'other' : nodeOnlyPart(stack);
    add(parts, part, time);
  }
  const ranked = (map: Map<string, number>, limit: number): ProfileShare[] =>
    [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, limit).map(([name, time]) => ({ name, share: busy ? time / busy : 0 }));
  return { busyMs: busy / 1000, idleShare: idle / (idle + busy || 1), byPart: ranked(parts, 12), byOwner: ranked(owners, 20), topFunctions: ranked(functions, 15) };
}
