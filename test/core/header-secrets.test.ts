import { describe, expect, it } from 'vitest';
import { credentialParts, headerSecrets } from '../../shared/core/header-secrets.ts';

const basic = (userPassword: string) => `Basic ${Buffer.from(userPassword).toString('base64')}`;

describe('credentialParts', () => {
  it('gives a bearer token alone as well as the whole value, since a server may echo either', () => {
    expect(credentialParts('Bearer TOKEN-r401-XYZ')).toEqual(['Bearer TOKEN-r401-XYZ', 'TOKEN-r401-XYZ']);
  });

  it('reads the credentials after any scheme, whatever its case', () => {
    expect(credentialParts('token ghp_0123456789abcdef')).toEqual(['token ghp_0123456789abcdef', 'ghp_0123456789abcdef']);
    expect(credentialParts('bearer   spaced-secret-42  ')).toEqual(['bearer   spaced-secret-42', 'spaced-secret-42']);
  });

  it('decodes Basic credentials: user:password and the password alone', () => {
    const value = basic('alice:correct-horse-battery');
    expect(credentialParts(value)).toEqual([value, value.slice('Basic '.length), 'alice:correct-horse-battery', 'correct-horse-battery']);
  });

  it('leaves out parts too short to be secrets', () => {
    expect(credentialParts(basic('bob:hunter2'))).toEqual([basic('bob:hunter2'), Buffer.from('bob:hunter2').toString('base64'), 'bob:hunter2']);
    expect(credentialParts('Bearer abc')).toEqual(['Bearer abc']);
    expect(credentialParts('json')).toEqual([]);
  });

  it('takes Basic credentials that are not base64 of text as they are', () => {
    expect(credentialParts('Basic not*base64!')).toEqual(['Basic not*base64!', 'not*base64!']);
    expect(credentialParts(`Basic ${Buffer.from([0xff, 0xfe, 0xfd, 0xfc, 0xfb, 0xfa]).toString('base64')}`)).toHaveLength(2);
  });

  it('gives a value without a scheme as it is', () => {
    expect(credentialParts('sk-live-0123456789')).toEqual(['sk-live-0123456789']);
  });
});

describe('headerSecrets', () => {
  it("gives every header's secrets, each once", () => {
    expect(headerSecrets({ Authorization: 'Bearer shared-token-1', 'X-Token': 'shared-token-1', Accept: 'text/plain' })).toEqual([
      'Bearer shared-token-1',
      'shared-token-1',
      'text/plain',
    ]);
  });
});
