import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for SQS's SendMessage (AWS JSON 1.0 protocol), a process of its own: takes each usage record
 * and drops it, answering as SQS does (the usage sink checks MD5OfMessageBody). It lets the bench run the
 * gateway in its AWS shape, with the usage writer off its core. `node bench/fake-sqs.ts [port]`.
 */
let received = 0;
const server = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    if (request.method === 'GET') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received }));
      return;
    }
    let messageBody = '';
    try {
      messageBody = String((JSON.parse(body) as { MessageBody?: unknown }).MessageBody ?? '');
    } catch {
      response.writeHead(400).end();
      return;
    }
    received += 1;
    const answer = JSON.stringify({ MessageId: randomUUID(), MD5OfMessageBody: createHash('md5').update(messageBody).digest('hex') });
    response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'content-length': Buffer.byteLength(answer) }).end(answer);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  console.log(`fake sqs listening on ${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
