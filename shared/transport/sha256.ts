import { createHash, createHmac, createSecretKey, type Hash, type Hmac, type KeyObject } from 'node:crypto';

/** What the AWS SDK hashes: text (in an encoding), an ArrayBuffer or a view of one. */
type SourceData = string | ArrayBuffer | ArrayBufferView;

/**
 * SHA-256, or HMAC-SHA-256 when made with a secret, for the AWS SDK's SigV4 signer and clients (their
 * `sha256` option): the same digests as the SDK's own (@smithy/hash-node), but the HMAC key is handed to
 * Node as a KeyObject. On Node 24 `createHmac` with a Buffer key first asks whether the key is a KeyObject,
 * then whether it is a CryptoKey, each by a brand check that throws and is caught (`isKeyObject`,
 * `isCryptoKey` in lib/internal/crypto/keys.js): two exceptions, ~36 µs per HMAC on this project's VM,
 * against ~6.5 µs from a KeyObject. The SDK's hasher turns every key, even text, into a Buffer, and a
 * signature computes two HMACs (the signing-key cache's key and the signature), so each signed call (a
 * usage record to SQS, a DynamoDB call) paid ~60 µs for them.
 */
export class Sha256 {
  // As the SDK's hasher decides: an empty text secret means a plain hash.
  readonly #key: KeyObject | undefined;
  #hash: Hash | Hmac;

  constructor(secret?: SourceData) {
    this.#key = secret ? createSecretKey(toBuffer(secret)) : undefined;
    this.#hash = this.#start();
  }

  update(data: SourceData, encoding?: 'utf8' | 'ascii' | 'latin1'): void {
    this.#hash.update(toBuffer(data, encoding));
  }

  async digest(): Promise<Uint8Array> {
    return this.#hash.digest();
  }

  reset(): void {
    this.#hash = this.#start();
  }

  #start(): Hash | Hmac {
    return this.#key ? createHmac('sha256', this.#key) : createHash('sha256');
  }
}

function toBuffer(data: SourceData, encoding?: BufferEncoding): Buffer {
  if (typeof data === 'string') return Buffer.from(data, encoding ?? 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(data);
}
