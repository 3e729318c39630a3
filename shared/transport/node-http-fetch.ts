import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { Agent as HttpAgentType } from 'node:http';
import type { Agent as HttpsAgentType } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { UpstreamFetch } from '../core/ports.ts';
import { isPublicAddress } from '../core/public-address.ts';
import { IncomingResponse } from './incoming-response.ts';

// Taken with getBuiltinModule, not `import`: an ESM import of node:http reads every export, and one of
// them loads Node's bundled undici (its fetch, unused here), a tenth of a handler's import time.
const { Agent: HttpAgent, request: httpRequest } = process.getBuiltinModule('node:http');
const { Agent: HttpsAgent, request: httpsRequest } = process.getBuiltinModule('node:https');

/** A connection refused because its address is not public (a name resolving to the metadata service, say). */
export class NonPublicAddressError extends Error {
  readonly code = 'ENOTPUBLIC';
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, which is not a public address`);
  }
}

/**
 * DNS resolution that refuses non-public addresses: the base URL was checked when it was set, but a name
 * can resolve anywhere (`169.254.169.254.nip.io`, a record changed later), so the address is checked at
 * connect time, on every connection.
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...(options as LookupOptions), all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 4);
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused) return callback(new NonPublicAddressError(hostname, refused.address), '', 4);
    if ((options as LookupOptions).all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
    const first = addresses[0] as LookupAddress;
    callback(null, first.address, first.family);
  });
};

/**
 * The upstream transport on Node's own HTTP client: fetch-shaped (so the gateway's code and its tests
 * see the same Response), but several times cheaper per call than the global fetch, which matters on a
 * path that adds latency to every request. Bodies are not decompressed: no Accept-Encoding is sent.
 * Connections are kept open between requests (and between invocations of a warm Lambda). Unless private
 * upstreams are allowed (the local host), only public addresses are ever connected to.
 */
export function createNodeHttpFetch(options: { allowPrivateAddresses: boolean }): UpstreamFetch {
  const lookup = options.allowPrivateAddresses ? undefined : publicOnlyLookup;
  const agents = {
    'http:': new HttpAgent({ keepAlive: true, maxSockets: 256, ...(lookup ? { lookup } : {}) }),
    'https:': new HttpsAgent({ keepAlive: true, maxSockets: 256, ...(lookup ? { lookup } : {}) }),
  };
  return (url, init) => send(url, init, agents, options.allowPrivateAddresses);
}

function send(url: string, init: RequestInit, agents: { 'http:': HttpAgentType; 'https:': HttpsAgentType }, allowPrivateAddresses: boolean): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const target = new URL(url);
    const agent = agents[target.protocol as keyof typeof agents];
    if (!agent) return reject(new TypeError(`Unsupported protocol ${target.protocol}`));
    // The host as Node connects to it (an IPv6 literal without its brackets). An address literal is
    // connected to without a lookup: it is checked here instead.
    const hostname = target.hostname.replace(/^\[|\]$/g, '');
    if (!allowPrivateAddresses && isIP(hostname) !== 0 && !isPublicAddress(hostname)) return reject(new NonPublicAddressError(target.hostname, hostname));
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return reject(abortError(signal));
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    // Text, or the bytes of an upload; nothing else is ever sent.
    const body = typeof init.body === 'string' || init.body instanceof Uint8Array ? init.body : '';
    // Plain options and a flat list of header lines: Node checks each line as it writes it, as it does a
    // header object's, but skips converting the URL and building its header map (~15 µs of a request's CPU).
    const options = {
      protocol: target.protocol,
      hostname,
      ...(target.port ? { port: Number(target.port) } : {}),
      path: `${target.pathname}${target.search}`,
      method: init.method ?? 'GET',
      headers: headerLines(target, init.headers as Record<string, string> | undefined, body),
      agent,
    };
    const outgoing = send(options, (message) => {
      const status = message.statusCode ?? 502;
      // A Response may carry no body for these statuses.
      const bodyless = status === 204 || status === 304 || (status >= 100 && status < 200);
      if (bodyless) message.resume();
      resolve(new IncomingResponse(message, url, bodyless, signal));
    });
    if (signal) {
      // One listener, gone when the exchange closes (Node's own `signal` option watches the request with
      // end-of-stream listeners, which cost more than the rest of the set-up).
      const onAbort = (): void => void outgoing.destroy(abortError(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      outgoing.once('close', () => signal.removeEventListener('abort', onAbort));
    }
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}

/**
 * `host` first (the URL's unless the caller gave one, a signed call's), the caller's headers (a name given
 * twice in different case once, the last given, as Node's header map keeps it), the URL's credentials as
 * Basic authorization unless the caller authorizes otherwise (as Node does for a URL), then the body's length.
 */
function headerLines(target: URL, headers: Record<string, string> | undefined, body: string | Uint8Array): string[] {
  const byName = new Map<string, [string, string]>();
  for (const name in headers) byName.set(name.toLowerCase(), [name, headers[name] as string]);
  const host = byName.get('host')?.[1] ?? target.host;
  byName.delete('host');
  byName.delete('content-length');
  if (!byName.has('authorization') && (target.username || target.password)) {
    const credentials = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
    byName.set('authorization', ['authorization', `Basic ${Buffer.from(credentials).toString('base64')}`]);
  }
  const lines = ['host', host];
  for (const [name, value] of byName.values()) lines.push(name, value);
  lines.push('content-length', String(Buffer.byteLength(body)));
  return lines;
}

/** What fetch and Node's `signal` option reject with: an AbortError whose cause is the signal's reason. */
function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), { name: 'AbortError', code: 'ABORT_ERR' });
}
