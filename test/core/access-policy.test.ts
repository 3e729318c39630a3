import { describe, expect, it } from 'vitest';
import { enforceAccessPolicy, parseCidr, type AccessContext } from '../../shared/core/access-policy.ts';
import { GatewayError } from '../../shared/core/errors.ts';
import type { Project } from '../../shared/core/project-config.ts';

const base: Project = {
  projectId: 'acme',
  name: 'Acme',
  plan: 'active',
  usageInjection: false,
  failover: false,
  mcp: false,
  createdAt: '2025-03-01T10:00:00.000Z',
  updatedAt: '2025-03-01T10:00:00.000Z',
};

function withPolicy(accessPolicy: NonNullable<Project['accessPolicy']>): Project {
  return { ...base, accessPolicy };
}

const request: AccessContext = { clientIp: '203.0.113.7', environment: 'prod', endpoint: 'chat.completions' };

function refusal(project: Project, context: AccessContext): GatewayError {
  try {
    enforceAccessPolicy(project, context);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected the access policy to refuse the request');
}

describe('parseCidr', () => {
  it('parses an IPv4 block', () => {
    expect(parseCidr('10.0.0.0/8')).toEqual({ address: '10.0.0.0', prefix: 8, family: 'ipv4' });
  });

  it('parses an IPv6 block', () => {
    expect(parseCidr('2001:db8::/32')).toEqual({ address: '2001:db8::', prefix: 32, family: 'ipv6' });
  });

  it('reads a bare address as a single host, trimming blanks', () => {
    expect(parseCidr(' 192.0.2.1 ')).toEqual({ address: '192.0.2.1', prefix: 32, family: 'ipv4' });
    expect(parseCidr('::1')).toEqual({ address: '::1', prefix: 128, family: 'ipv6' });
  });

  it.each(['', 'not-an-ip', '10.0.0.0/33', '10.0.0.0/-1', '10.0.0.0/8.5', '10.0.0.0/', '10.0.0.0/0x8', '10.0.0.0/1e1', '10.0.0.0/ 8', '10.0.0.0/8/9', '2001:db8::/129', '300.1.1.1/8', 'example.com/24'])(
    'refuses %j',
    (input) => {
      expect(parseCidr(input)).toBeUndefined();
    },
  );
});

describe('enforceAccessPolicy', () => {
  it('allows everything when the project has no policy', () => {
    expect(() => enforceAccessPolicy(base, { clientIp: '198.51.100.1', environment: undefined, endpoint: 'models' })).not.toThrow();
  });

  it('refuses an endpoint group the policy does not list with 403 endpoint_not_allowed', () => {
    const project = withPolicy({ allowedEndpoints: ['chat'] });

    const error = refusal(project, { ...request, endpoint: 'models' });

    expect(error.status).toBe(403);
    expect(error.code).toBe('endpoint_not_allowed');
    expect(error.message).toMatch(/"models"/);
    expect(() => enforceAccessPolicy(project, request)).not.toThrow();
  });

  it('refuses a client address outside every allowed block with 403 ip_not_allowed', () => {
    const project = withPolicy({ allowedCidrs: ['10.0.0.0/8', '2001:db8::/32'] });

    const error = refusal(project, request);

    expect(error.status).toBe(403);
    expect(error.code).toBe('ip_not_allowed');
    expect(error.message).toMatch(/203\.0\.113\.7/);
  });

  it('admits client addresses inside an allowed IPv4 or IPv6 block, or equal to an allowed host', () => {
    const project = withPolicy({ allowedCidrs: ['10.0.0.0/8', '2001:db8::/32', '203.0.113.7'] });

    for (const clientIp of ['10.1.2.3', '2001:db8:1::5', '203.0.113.7']) {
      expect(() => enforceAccessPolicy(project, { ...request, clientIp })).not.toThrow();
    }
    expect(refusal(project, { ...request, clientIp: '203.0.113.8' }).code).toBe('ip_not_allowed');
    expect(refusal(project, { ...request, clientIp: '2001:db9::1' }).code).toBe('ip_not_allowed');
  });

  it('refuses a client address that is not an IP address at all', () => {
    expect(refusal(withPolicy({ allowedCidrs: ['0.0.0.0/0'] }), { ...request, clientIp: 'unknown' }).code).toBe('ip_not_allowed');
  });

  it('refuses an environment the policy does not list, and a request without one, with 403 environment_not_allowed', () => {
    const project = withPolicy({ allowedEnvironments: ['prod', 'staging'] });

    const wrong = refusal(project, { ...request, environment: 'dev' });
    const missing = refusal(project, { ...request, environment: undefined });

    expect(wrong).toMatchObject({ status: 403, code: 'environment_not_allowed' });
    expect(wrong.message).toMatch(/"dev".*allowed: prod, staging/);
    expect(missing).toMatchObject({ status: 403, code: 'environment_not_allowed' });
    expect(missing.message).toMatch(/without X-Environment/);
    expect(() => enforceAccessPolicy(project, { ...request, environment: 'staging' })).not.toThrow();
  });

  it('admits a request that every rule of a combined policy allows', () => {
    const project = withPolicy({ allowedEndpoints: ['chat', 'generation'], allowedCidrs: ['203.0.113.0/24'], allowedEnvironments: ['prod'] });

    expect(() => enforceAccessPolicy(project, request)).not.toThrow();
    expect(refusal(project, { ...request, endpoint: 'models' }).code).toBe('endpoint_not_allowed');
  });
});
