import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An error the fake answers in the AWS JSON protocol's shape; the SDK turns it into the service's exception class. */
export class AwsServiceError extends Error {
  readonly type: string;
  readonly status: number;

  constructor(type: string, message: string, status = 400) {
    super(message);
    this.type = type;
    this.status = status;
  }
}

export type AwsJsonOperation = (input: Record<string, unknown>) => unknown;

export interface AwsJsonService {
  /** For `AWS_ENDPOINT_URL_<SERVICE>`. */
  endpoint: string;
  close(): Promise<void>;
}

/** A refusal before any operation runs (a bad signature), with the status AWS gives it. */
export type AwsJsonAuthorizer = (request: IncomingMessage, body: string) => Promise<{ status: number; type: string; message: string } | undefined>;

/**
 * A loopback server speaking the AWS JSON protocol (1.0 or 1.1): `POST /` with `X-Amz-Target:
 * <prefix>.<Operation>` and a JSON body, answered with JSON, or with 400 and `__type` for an error (an
 * AwsServiceError may carry another status). Signatures are checked only when an `authorize` is given.
 */
export async function startAwsJsonService(options: { targetPrefix: string; contentType: string; operations: Record<string, AwsJsonOperation>; authorize?: AwsJsonAuthorizer }): Promise<AwsJsonService> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        const body = JSON.stringify(payload);
        response.writeHead(status, { 'content-type': options.contentType, 'content-length': String(Buffer.byteLength(body)), ...headers }).end(body);
      };
      const target = String(request.headers['x-amz-target'] ?? '');
      const operation = target.startsWith(`${options.targetPrefix}.`) ? options.operations[target.slice(options.targetPrefix.length + 1)] : undefined;
      if (!operation) return answer(400, { __type: 'UnknownOperationException', message: `the fake does not implement ${target}` });
      const text = Buffer.concat(chunks).toString('utf8');
      void (options.authorize?.(request, text) ?? Promise.resolve(undefined)).then((refusal) => {
        if (refusal) return answer(refusal.status, { __type: refusal.type, message: refusal.message }, { 'x-amzn-errortype': refusal.type });
        try {
          answer(200, operation(text ? (JSON.parse(text) as Record<string, unknown>) : {}) ?? {});
        } catch (error) {
          if (!(error instanceof AwsServiceError)) return answer(500, { __type: 'InternalFailure', message: String(error) });
          // Query-compatible services (SQS) read the code from this header; the others from __type.
          answer(error.status, { __type: error.type, message: error.message }, { 'x-amzn-errortype': error.type, 'x-amzn-query-error': `${error.type};Sender` });
        }
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
