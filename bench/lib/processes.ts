import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Service {
  name: string;
  pid: number;
  /** What the ready pattern's first group captured (the port, for our services). */
  ready: string;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** Sends a message over the IPC channel (services started with `ipc: true`) and resolves with the reply. */
  ask(message: { probe: string; [field: string]: unknown }, timeoutMs?: number): Promise<unknown>;
  /** SIGTERM, then SIGKILL after `graceMs` (5 s unless given). */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnOptions {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Matched against the output; its first group becomes `ready`. */
  readyPattern: RegExp;
  /** CPU list for taskset (e.g. "0"): the system under test gets a core of its own. */
  pinTo?: string | undefined;
  cwd?: string;
  timeoutMs?: number;
  /** Opens an IPC channel to the process (for bench/probe-preload.ts). */
  ipc?: boolean;
}

let tasksetPath: string | null | undefined;

/** The taskset binary (util-linux), or null where there is none. */
export function findTaskset(): string | null {
  if (tasksetPath !== undefined) return tasksetPath;
  const found = spawnSync('sh', ['-c', 'command -v taskset'], { encoding: 'utf8' });
  tasksetPath = found.status === 0 && found.stdout.trim() ? found.stdout.trim() : null;
  return tasksetPath;
}

/** Starts a service and resolves once it printed its ready line; taskset execs the command, so the pid is the service's. */
export function startService(options: SpawnOptions): Promise<Service> {
  const taskset = options.pinTo === undefined ? null : findTaskset();
  const [command, args] = taskset ? [taskset, ['-c', options.pinTo ?? '0', options.command, ...options.args]] : [options.command, options.args];
  const child = spawn(command, args, {
    cwd: options.cwd ?? PROJECT_ROOT,
    env: { ...process.env, ...options.env },
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${options.name} did not start within ${options.timeoutMs ?? 60_000} ms`)), options.timeoutMs ?? 60_000);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n--- ${options.name} output ---\n${output.slice(-3000)}`));
    };
    let started = false;
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (output.length > 200_000) output = output.slice(-100_000);
      // Once started, a service's output is only kept for error reports (the AWS-shaped gateway writes two
      // metric lines per request): no pattern to look for.
      if (started) return;
      const match = options.readyPattern.exec(output);
      if (match && child.pid !== undefined) {
        started = true;
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve({ name: options.name, pid: child.pid, ready: match[1] ?? match[0], output: () => output, ask: (message, timeoutMs) => ask(child, message, timeoutMs), stop: (graceMs?: number) => stopChild(child, graceMs) });
      }
    };
    const onExit = (code: number | null): void => fail(new Error(`${options.name} exited early (code ${code})`));
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', fail);
  });
}

function ask(child: ChildProcess, message: { probe: string }, timeoutMs = 30_000): Promise<unknown> {
  if (!child.send) return Promise.reject(new Error('the process has no IPC channel'));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      reject(new Error(`no answer to ${message.probe} within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (reply: unknown) => {
      if (typeof reply !== 'object' || reply === null || (reply as { probe?: unknown }).probe !== message.probe) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve((reply as { result?: unknown }).result);
    };
    child.on('message', onMessage);
    child.send?.(message);
  });
}

function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Runs a command to its end and returns its stdout (throws with stderr on a non-zero exit). */
export function runToEnd(command: string, args: string[], options: { env?: Record<string, string>; cwd?: string; pinTo?: string | undefined } = {}): Promise<string> {
  const taskset = options.pinTo === undefined ? null : findTaskset();
  const [file, argv] = taskset ? [taskset, ['-c', options.pinTo ?? '0', command, ...args]] : [command, args];
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { cwd: options.cwd ?? PROJECT_ROOT, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${stderr.slice(-2000)}`))));
  });
}

/** Resident memory of a process in KiB (VmRSS from /proc), or undefined where /proc is not available. */
export async function residentKiB(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) a process has used so far, in milliseconds (from /proc/<pid>/stat). */
export async function cpuTimeMs(pid: number): Promise<number | undefined> {
  return statCpuTimeMs(`/proc/${pid}/stat`);
}

/** The ids of a process's children (their `ppid` in /proc/<pid>/stat); none where there is no /proc. */
export async function findChildren(pid: number): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent === pid) found.push(Number(entry));
  }
  return found;
}

async function statCpuTimeMs(path: string): Promise<number | undefined> {
  try {
    const stat = await readFile(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / 100;
  } catch {
    return undefined;
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The node binary: Node 24 runs the bench's TypeScript files itself (erasable syntax only). */
export const NODE = process.execPath;
