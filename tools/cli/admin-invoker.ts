import { resolve } from 'node:path';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { DEFAULT_DATA_DIR, LOCAL_ADMIN_TOKEN_HEADER, readLiveHostFile, type HostFile } from '../local-host/host-file.ts';
import { retryWhileStoreHeld, STORE_WAIT_MS } from '../local-host/retry-while-store-held.ts';
import { StoreHeldError } from '../local-host/store-held-error.ts';

/** Sends one event to the admin function and returns its answer. */
export type AdminInvoker = (event: unknown) => Promise<unknown>;

export interface InvokerChoice {
  invoke: AdminInvoker;
  /** Where the command went, for error messages: "aws", "local host" or "in-process". */
  target: string;
  /** What the person should know about where the command runs (several data directories may exist). */
  note?: string;
  close(): Promise<void>;
}

/** Lambda Invoke through the SDK, against AWS or the local host's emulation of the same API. */
function lambdaInvoker(client: LambdaClient, functionName: string): AdminInvoker {
  return async (event) => {
    const answer = await client.send(
      new InvokeCommand({ FunctionName: functionName, Payload: new TextEncoder().encode(JSON.stringify(event)) }),
    );
    const payload = answer.Payload ? new TextDecoder().decode(answer.Payload) : 'null';
    if (answer.FunctionError) throw new Error(`The admin function failed: ${payload}`);
    return JSON.parse(payload) as unknown;
  };
}

export interface LocalStoreWait {
  /** How long to wait for another process to let go of the local store (STORE_WAIT_MS unless given). */
  storeWaitMs?: number;
  /** Says why the command waits (the CLI prints it on stderr). */
  report?: (line: string) => void;
}

/**
 * Chooses where admin commands run: the deployed admin function when GATEWAY_ADMIN_FUNCTION_NAME is
 * set; else the local host that is running on the data directory; else the admin handler in this
 * process on the embedded store. While another process holds that store without a host answering on it
 * (a gateway starting or stopping, another command on the store), it waits for one or the other.
 */
export async function chooseAdminInvoker(env: Record<string, string | undefined>, wait: LocalStoreWait = {}): Promise<InvokerChoice> {
  const functionName = env.GATEWAY_ADMIN_FUNCTION_NAME;
  if (functionName) {
    const client = new LambdaClient({});
    return { invoke: lambdaInvoker(client, functionName), target: 'aws', close: async () => client.destroy() };
  }

  const dataDir = resolve(env.GATEWAY_DATA_DIR ?? DEFAULT_DATA_DIR);
  const waitMs = wait.storeWaitMs ?? STORE_WAIT_MS;
  try {
    return await retryWhileStoreHeld(() => localInvoker(dataDir), {
      waitMs,
      onHeld: () => wait.report?.(`(another process holds the store in ${dataDir}, a gateway starting or stopping or another admin command: waiting up to ${waitMs / 1000} s for it)`),
    });
  } catch (error) {
    if (!(error instanceof StoreHeldError)) throw error;
    throw new Error(
      `Another process still holds the store in ${dataDir} after ${waitMs / 1000} s, and no gateway answers on it. If npm start runs on it, try again once it says it is listening; otherwise stop that process.`,
      { cause: error },
    );
  }
}

/** The host running on the data directory, if one answers; else the store, if no other process holds it. */
async function localInvoker(dataDir: string): Promise<InvokerChoice> {
  const host = await readLiveHostFile(dataDir);
  return host ? hostInvoker(host) : inProcessInvoker(dataDir);
}

function hostInvoker(host: HostFile): InvokerChoice {
  const client = new LambdaClient({
    endpoint: host.url,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  client.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { headers?: Record<string, string> };
      if (request.headers) request.headers[LOCAL_ADMIN_TOKEN_HEADER] = host.adminToken;
      return next(args);
    },
    { step: 'build', name: 'localAdminToken' },
  );
  return { invoke: lambdaInvoker(client, 'admin'), target: 'local host', close: async () => client.destroy() };
}

async function inProcessInvoker(dataDir: string): Promise<InvokerChoice> {
  // The CLI prints a refusal itself: the handler's WARN log line of it would only repeat it on stderr.
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  // Loaded while the store opens.
  const adminModule = import('../../functions/admin/handler.ts');
  const [{ openLocalEnvironment }, { startLocalBackend }] = await Promise.all([
    import('../local-host/local-environment.ts'),
    import('../local-host/backend.ts'),
  ]);
  // The store in a process of its own, as the host opens it: dynalite meets a directory another process
  // holds by throwing outside any promise, which would end this process with a LevelDB trace. The admin
  // function's own log lines would only interleave with the CLI's answer.
  const environment = await openLocalEnvironment(dataDir, { POWERTOOLS_LOG_LEVEL: 'SILENT' }, startLocalBackend);
  const { createHandler } = await adminModule;
  const invoke = createHandler(environment.config) as unknown as (event: unknown, context: object) => Promise<unknown>;
  return {
    invoke: (event) => invoke(event, {}),
    target: 'in-process',
    note: `(no gateway is running on ${environment.dataDir}: the command runs on its store directly)`,
    close: () => environment.store.shutdown(),
  };
}
