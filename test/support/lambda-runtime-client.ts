import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../infra/bundling/handler-code.ts';
import { startRuntimeApiEmulator, type RuntimeApiEmulator } from './lambda-runtime-api.ts';

/**
 * AWS's Node.js runtime interface client (npm `aws-lambda-ric`): the code that, in Lambda's Node.js runtime,
 * loads the handler, polls the Runtime API and streams responses. Its native part (the Runtime API client,
 * built on aws-lambda-cpp and curl) is compiled by the package's install scripts.
 */
const RUNTIME_CLIENT_DIR = join(PROJECT_ROOT, 'node_modules', 'aws-lambda-ric');
const NATIVE_CLIENT = join(RUNTIME_CLIENT_DIR, 'rapid-client.node');

/**
 * Builds the native client when `npm install` did not (install scripts not allowed): the package's own
 * preinstall (curl, aws-lambda-cpp) and postinstall (node-gyp) scripts, about a minute; they need cmake,
 * make, a C++ compiler and python3.
 */
export async function ensureRuntimeClientBuilt(): Promise<void> {
  if (existsSync(NATIVE_CLIENT)) return;
  try {
    await promisify(execFile)('sh', ['-c', './scripts/preinstall.sh && ./scripts/postinstall.sh'], { cwd: RUNTIME_CLIENT_DIR, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`building aws-lambda-ric's native client failed:\n${String(stdout).slice(-2000)}\n${String(stderr).slice(-2000)}`, { cause: error });
  }
  if (!existsSync(NATIVE_CLIENT)) throw new Error(`aws-lambda-ric's build left no ${NATIVE_CLIENT}`);
}

export interface RuntimeClientProcess {
  /** Everything the process wrote (the function's logs), for failure messages. */
  output(): string;
  /** Rejects if the process ends before it is stopped (a crash, or an initialisation error). */
  readonly crashed: Promise<never>;
  stop(): Promise<void>;
}

/**
 * Starts the runtime client as Lambda does: `_HANDLER` in `LAMBDA_TASK_ROOT`, talking to the Runtime API
 * at `AWS_LAMBDA_RUNTIME_API`, with only the environment given (nothing of the test process's).
 */
export function startRuntimeClient(options: { taskRoot: string; handler: string; runtimeApi: string; environment: Record<string, string> }): RuntimeClientProcess {
  const child = spawn(process.execPath, [join(RUNTIME_CLIENT_DIR, 'index.mjs')], {
    cwd: options.taskRoot,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      TZ: 'UTC',
      ...options.environment,
      AWS_LAMBDA_RUNTIME_API: options.runtimeApi,
      _HANDLER: options.handler,
      LAMBDA_TASK_ROOT: options.taskRoot,
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  let stopping = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const crashed = exited.then(() => {
    throw new Error(stopping ? 'the runtime client was stopped' : `the runtime client exited (${child.exitCode ?? child.signalCode}):\n${output}`);
  });
  crashed.catch(() => {}); // observed by whoever races it
  return {
    output: () => output,
    crashed,
    stop: async () => {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** What Lambda tells a function about itself; the runtime client refuses to start without it. */
export function functionIdentity(name: string, memoryMb: number): Record<string, string> {
  return {
    AWS_LAMBDA_FUNCTION_NAME: name,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(memoryMb),
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${name}`,
    AWS_LAMBDA_LOG_STREAM_NAME: 'runtime-test',
  };
}

export interface RunningFunction {
  runtimeApi: RuntimeApiEmulator;
  runtime: RuntimeClientProcess;
  stop(): Promise<void>;
}

/** One function (`index.handler` in `taskRoot`) under the runtime client, with a Runtime API of its own. */
export async function startFunction(taskRoot: string, environment: Record<string, string>): Promise<RunningFunction> {
  const runtimeApi = await startRuntimeApiEmulator();
  const runtime = startRuntimeClient({ taskRoot, handler: 'index.handler', runtimeApi: runtimeApi.address, environment });
  return {
    runtimeApi,
    runtime,
    stop: async () => {
      await runtime.stop();
      await runtimeApi.close();
    },
  };
}
