import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'node:http';

/**
 * The floor for any Node gateway: a bare `node:http` proxy that pipes each request to the upstream and
 * the answer back, with no parsing, auth or metering. `node bench/pipe-proxy.ts <upstreamPort> [port]`.
 */
const upstreamPort = Number(process.argv[2]);
if (!Number.isInteger(upstreamPort) || upstreamPort <= 0) throw new Error('usage: pipe-proxy.ts <upstreamPort> [port]');
const agent = new Agent({ keepAlive: true, maxSockets: 1024 });

const server = createServer((incoming, outgoing) => {
  const forward = httpRequest(
    { host: '127.0.0.1', port: upstreamPort, method: incoming.method, path: incoming.url, headers: incoming.headers, agent },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  forward.on('error', () => {
    if (!outgoing.headersSent) outgoing.writeHead(502);
    outgoing.end();
  });
  incoming.pipe(forward);
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.argv[3] ?? 0), '127.0.0.1', () => {
  console.log(`pipe proxy listening on ${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
