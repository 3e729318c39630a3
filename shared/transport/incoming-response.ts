import type { IncomingMessage } from 'node:http';
import { finished, Readable } from 'node:stream';

/*
 * A fetch-shaped Response over Node's incoming message, built without undici's Response and Headers:
 * touching either global loads Node's bundled undici (10–25 ms of a handler's import), and constructing
 * them costs tens of µs per upstream answer, on a path that adds latency to every request. They behave
 * as a fetch response does where the gateway and the MCP SDK look (status, headers, body read once, or
 * streamed); the rarely used forms (formData, clone) fall back to undici's own.
 */

type RawHeaders = IncomingMessage['headers'];

/** A response's headers as fetch presents them: names lower-case, repeated values joined, read-only. */
export class IncomingHeaders implements Headers {
  readonly #raw: RawHeaders;

  constructor(raw: RawHeaders) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    const key = name.toLowerCase();
    // Own properties only: Node's header object inherits from Object (`constructor` is not a header).
    const value = Object.hasOwn(this.#raw, key) ? this.#raw[key] : undefined;
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  getSetCookie(): string[] {
    const cookies = this.#raw['set-cookie'];
    return cookies === undefined ? [] : [...cookies];
  }

  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.#pairs()) callback.call(thisArg, value, name, this);
  }

  entries(): HeadersIterator<[string, string]> {
    return this.#pairs()[Symbol.iterator]();
  }

  keys(): HeadersIterator<string> {
    return this.#pairs().map(([name]) => name)[Symbol.iterator]();
  }

  values(): HeadersIterator<string> {
    return this.#pairs().map(([, value]) => value)[Symbol.iterator]();
  }

  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries();
  }

  // A fetch response's headers are immutable ("immutable" guard): changing them throws, as there.
  append(): void {
    throw immutable();
  }

  set(): void {
    throw immutable();
  }

  delete(): void {
    throw immutable();
  }

  /** Sorted by name, each Set-Cookie apart, as the Fetch standard iterates headers. */
  #pairs(): Array<[string, string]> {
    const pairs: Array<[string, string]> = [];
    for (const name of Object.keys(this.#raw).sort()) {
      if (name === 'set-cookie') for (const cookie of this.getSetCookie()) pairs.push([name, cookie]);
      else {
        const value = this.get(name);
        if (value !== null) pairs.push([name, value]);
      }
    }
    return pairs;
  }
}

function immutable(): TypeError {
  return new TypeError('immutable: the headers of a fetched response cannot be changed');
}

/**
 * A JSON answer read whole (`text()`, `json()`) is read from the message itself; the web stream is made
 * only when `body` is asked for (a relayed stream). The body is read once, as with any Response. It is not
 * `instanceof Response` (the MCP SDK checks that only for OAuth error answers, which the bridge does not use).
 */
export class IncomingResponse implements Response {
  readonly headers: IncomingHeaders;
  readonly status: number;
  readonly statusText: string;
  readonly redirected = false;
  readonly type: ResponseType = 'default';
  #stream: ReadableStream<Uint8Array<ArrayBuffer>> | undefined;
  #used = false;

  private readonly message: IncomingMessage;
  readonly url: string;
  /** 204, 304 and 1xx answers carry no body (the message has been drained). Read without building `body`. */
  readonly bodyless: boolean;
  /** The call's abort signal: a body read whole after it fired fails, as fetch's does. */
  private readonly signal: AbortSignal | undefined;

  constructor(message: IncomingMessage, url: string, bodyless: boolean, signal?: AbortSignal) {
    this.message = message;
    this.url = url;
    this.bodyless = bodyless;
    this.signal = signal;
    this.status = message.statusCode ?? 502;
    this.statusText = message.statusMessage ?? '';
    this.headers = new IncomingHeaders(message.headers);
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    if (this.bodyless) return null;
    return (this.#stream ??= Readable.toWeb(this.message) as ReadableStream<Uint8Array<ArrayBuffer>>);
  }

  /** The body as Node's stream: the message itself, read once (a relay reads it as it comes, no web stream between). */
  nodeStream(): Readable {
    if (this.#used || this.#stream) throw new TypeError('Body is unusable: the body has already been read');
    this.#used = true;
    return this.bodyless ? Readable.from([]) : this.message;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  async text(): Promise<string> {
    // Decoded as fetch decodes: UTF-8, a leading byte order mark dropped.
    return (await this.whole()).toString('utf8').replace(/^\uFEFF/, '');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.whole();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return new Uint8Array(await this.arrayBuffer());
  }

  async blob(): Promise<Blob> {
    return new Blob([await this.arrayBuffer()], { type: this.headers.get('content-type') ?? '' });
  }

  async formData(): Promise<FormData> {
    return new Response(await this.arrayBuffer(), { headers: [...this.headers] }).formData();
  }

  clone(): Response {
    if (this.#used) throw new TypeError('Response.clone: the body has already been read');
    const body = this.body;
    if (!body) return new Response(null, this.init());
    const [mine, theirs] = body.tee();
    this.#stream = mine;
    return new Response(theirs, this.init());
  }

  private init(): ResponseInit {
    return { status: this.status, statusText: this.statusText, headers: [...this.headers] };
  }

  private async whole(): Promise<Buffer> {
    if (this.#used) throw new TypeError('Body is unusable: the body has already been read');
    this.#used = true;
    if (this.bodyless) return Buffer.alloc(0);
    const chunks: Uint8Array[] = [];
    if (this.#stream) {
      for await (const chunk of this.#stream) chunks.push(chunk);
      return Buffer.concat(chunks);
    }
    // Events rather than `for await`: the async iterator costs several µs per answer on this path.
    const { message, signal } = this;
    return new Promise((resolve, reject) => {
      message.on('data', (chunk: Buffer) => chunks.push(chunk));
      finished(message, (error) => {
        // An abort drains the message, which may then end "normally" with part of the body.
        if (signal?.aborted) return reject(signal.reason);
        if (error) return reject(error);
        resolve(Buffer.concat(chunks));
      });
    });
  }
}

/** Whether a fetch response has a body; an IncomingResponse answers without building its web stream. */
export function hasBody(response: Response): boolean {
  return response instanceof IncomingResponse ? !response.bodyless : response.body !== null;
}

/**
 * A fetch response's body as a Node stream: an IncomingResponse's message itself, another's web stream (the
 * mock provider's) read chunk by chunk as it is asked for. Not Readable.fromWeb: it reads ahead, and a web
 * stream that fails after its last chunk then loses that chunk (its failure destroys the Node stream first).
 */
export function bodyAsNodeStream(response: Response): Readable {
  if (response instanceof IncomingResponse) return response.nodeStream();
  const reader = response.body?.getReader();
  if (!reader) return Readable.from([]);
  return new Readable({
    highWaterMark: 0,
    read() {
      reader.read().then(
        ({ done, value }) => this.push(done ? null : value),
        (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
      );
    },
    destroy(error, callback) {
      reader.cancel(error ?? undefined).catch(() => undefined);
      callback(error);
    },
  });
}
