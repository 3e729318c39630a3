import { BlockList, isIP } from 'node:net';
import { GatewayError } from './errors.ts';
import { endpointGroupOf, type EndpointName } from './endpoints.ts';
import type { Project } from './project-config.ts';

/** The parts of a request an access policy looks at. */
export interface AccessContext {
  clientIp: string;
  environment: string | undefined;
  /** The endpoint the request is for; the policy allows or refuses its group. */
  endpoint: EndpointName;
}

function blocked(message: string, code: string): GatewayError {
  return new GatewayError('permission', message, { code });
}

/** Parses `10.0.0.0/8` or `2001:db8::/32` (a bare address is a single host). */
export function parseCidr(cidr: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address = '', prefixText, ...rest] = cidr.trim().split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return undefined;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const max = version === 4 ? 32 : 128;
  // Digits only: Number('') is 0, which would silently allow every address.
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) return undefined;
  return { address, prefix, family };
}

function isInCidrs(ip: string, cidrs: readonly string[]): boolean {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const parsed = parseCidr(cidr);
    if (parsed) list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  const version = isIP(ip);
  return version !== 0 && list.check(ip, version === 4 ? 'ipv4' : 'ipv6');
}

/** Refuses with 403 what the project's access policy does not allow. */
export function enforceAccessPolicy(project: Project, context: AccessContext): void {
  const policy = project.accessPolicy;
  if (!policy) return;
  const group = endpointGroupOf(context.endpoint);
  if (policy.allowedEndpoints && !policy.allowedEndpoints.includes(group)) {
    throw blocked(`The project's access policy does not allow the "${group}" endpoints.`, 'endpoint_not_allowed');
  }
  if (policy.allowedCidrs && !isInCidrs(context.clientIp, policy.allowedCidrs)) {
    throw blocked(`The project's access policy does not allow requests from ${context.clientIp}.`, 'ip_not_allowed');
  }
  if (policy.allowedEnvironments && (!context.environment || !policy.allowedEnvironments.includes(context.environment))) {
    const shown = context.environment ? `"${context.environment}"` : 'a request without X-Environment';
    throw blocked(`The project's access policy does not allow ${shown}; allowed: ${policy.allowedEnvironments.join(', ')}.`, 'environment_not_allowed');
  }
}
