import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { DEFAULT_DATA_DIR, LOCAL_ADMIN_TOKEN_HEADER, readLiveHostFile } from '../local-host/host-file.ts';

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

/**
 * Chooses where admin commands run: the deployed admin function when GATEWAY_ADMIN_FUNCTION_NAME is
 * set; else the local host that is running on the data directory; else the admin handler in this
 * process on the embedded store (only possible while no host holds the store open).
 */
export async function chooseAdminInvoker(env: Record<string, string | undefined>): Promise<InvokerChoice> {
  const functionName = env.GATEWAY_ADMIN_FUNCTION_NAME;
  if (functionName) {
    const client = new LambdaClient({});
    return { invoke: lambdaInvoker(client, functionName), target: 'aws', close: async () => client.destroy() };
  }

  const dataDir = env.GATEWAY_DATA_DIR ?? DEFAULT_DATA_DIR;
  const host = await readLiveHostFile(dataDir);
  if (host) {
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

  // The CLI prints a refusal itself: the handler's WARN log line of it would only repeat it on stderr.
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  const { openLocalEnvironment } = await import('../local-host/local-environment.ts');
  // The admin function's own log lines would only interleave with the CLI's answer.
  const environment = await openLocalEnvironment(dataDir, { POWERTOOLS_LOG_LEVEL: 'SILENT' });

  const { createHandler } = await import('../../functions/admin/handler.ts');
  const invoke = createHandler(environment.config) as unknown as (event: unknown, context: object) => Promise<unknown>;
  return {
    invoke: (event) => invoke(event, {}),
    target: 'in-process',
    note: `(no gateway is running on ${environment.dataDir}: the command runs on its store directly)`,
    close: () => environment.store.close(),
  };
}
