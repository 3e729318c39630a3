import type { AdminServices } from '../admin/admin-services.ts';
import type { Clock, UsageQueryRunner } from '../core/ports.ts';
import type { ProjectRole } from '../core/membership.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import type { ConsoleAccess } from './console-access.ts';
import type { ConsoleAuthenticator, ConsoleIdentity, SignInCodeExchange } from './console-identity.ts';
import type { RoutePattern } from './console-router.ts';

export interface ConsoleApiDeps {
  /** The admin commands' services: every change goes through the same commands as the CLI. */
  admin: AdminServices;
  authenticator: ConsoleAuthenticator;
  usage: UsageQueryRunner;
  clock: Clock;
  /** Local sign-in only (one-time links); absent in AWS, where Cognito signs people in. */
  signInCodes?: SignInCodeExchange;
}

export interface ConsoleRouteContext {
  deps: ConsoleApiDeps;
  request: GatewayRequest;
  identity: ConsoleIdentity;
  /** The path's named segments, e.g. projectId. */
  params: Record<string, string>;
  /** The JSON body of a POST or PUT; empty for a GET. */
  body: Record<string, unknown>;
  /** The person's role in the project of a project route. */
  role: ProjectRole | undefined;
  /** Runs an admin command as the signed-in person (so the audit trail names them); a refusal is thrown. */
  run<T>(event: Record<string, unknown>): Promise<T>;
}

export interface ConsoleRoute extends RoutePattern {
  access: ConsoleAccess;
  handle(context: ConsoleRouteContext): Promise<GatewayResponse>;
}

/** The fields of a request body a route passes on to its admin command: nothing else can reach it. */
export function pick(body: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((field) => body[field] !== undefined).map((field) => [field, body[field]]));
}
