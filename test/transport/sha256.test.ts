import * as crypto from 'node:crypto';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Sha256 } from '../../shared/transport/sha256.ts';

vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:crypto')>();
  return { ...original, createHmac: vi.fn(original.createHmac) };
});

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

async function digestOf(hasher: { update(data: string | ArrayBuffer | ArrayBufferView): void; digest(): Promise<Uint8Array> }, ...parts: Array<string | ArrayBuffer | ArrayBufferView>) {
  for (const part of parts) hasher.update(part);
  return hex(await hasher.digest());
}

describe('the SHA-256 hasher the AWS signers and clients are given', () => {
  afterEach(() => vi.mocked(crypto.createHmac).mockClear());

  it('gives the HMAC of RFC 4231 test case 2 and the SHA-256 of "abc"', async () => {
    expect(await digestOf(new Sha256('Jefe'), 'what do ya want ', 'for nothing?')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
    expect(await digestOf(new Sha256(), 'abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it("gives the SDK's own digests whatever the form of key and data: text, bytes, a view into a larger buffer, an ArrayBuffer", async () => {
    const backing = new Uint8Array([9, 9, 1, 2, 3, 4, 9]);
    const view = backing.subarray(2, 6);
    const keys = [undefined, '', 'AWS4secret', new Uint8Array([1, 2, 3]), view, new Uint8Array([5, 6]).buffer];
    const data: Array<string | ArrayBuffer | ArrayBufferView> = ['text é', view, new Uint8Array([7, 8]).buffer, Buffer.from('buffer')];
    for (const key of keys) {
      expect(await digestOf(new Sha256(key), ...data)).toBe(await digestOf(new Hash('sha256', key), ...data));
    }
  });

  it('starts again on reset, with the same key', async () => {
    const hasher = new Sha256('key');
    hasher.update('discarded');
    hasher.reset();
    expect(await digestOf(hasher, 'kept')).toBe(await digestOf(new Hash('sha256', 'key'), 'kept'));
  });

  it("hands Node the HMAC key as a KeyObject, which Node 24 takes without the two exceptions a Buffer key costs", () => {
    new Sha256(new Uint8Array([1, 2, 3]));
    new Sha256('text key');
    const keys = vi.mocked(crypto.createHmac).mock.calls.map((call) => call[1]);
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(key).toBeInstanceOf(crypto.KeyObject);
  });

  it("signs a request exactly as the SDK's own hasher does", async () => {
    const request = {
      method: 'POST',
      protocol: 'https:',
      hostname: 'sqs.eu-west-1.amazonaws.com',
      path: '/',
      headers: { host: 'sqs.eu-west-1.amazonaws.com', 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'AmazonSQS.SendMessage' },
      body: '{"QueueUrl":"https://sqs.eu-west-1.amazonaws.com/123456789012/usage","MessageBody":"{}"}',
    };
    const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'token' };
    const signWith = async (sha256: ConstructorParameters<typeof SignatureV4>[0]['sha256']) =>
      (await new SignatureV4({ service: 'sqs', region: 'eu-west-1', credentials, sha256 }).sign(request, { signingDate: new Date('2026-11-23T12:00:00Z') })).headers;
    const ours = await signWith(Sha256);
    expect(ours.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20261123\/eu-west-1\/sqs\/aws4_request, SignedHeaders=.+, Signature=[0-9a-f]{64}$/);
    expect(ours).toEqual(await signWith(Hash.bind(null, 'sha256')));
  });
});
