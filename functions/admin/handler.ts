import middy from '@middy/core';
import { runAdminCommand } from '../../shared/admin/run-admin-command.ts';
import { ADMIN_CLI_ACTOR } from '../../shared/core/audit-entry.ts';
import { loadRuntimeConfig, type RuntimeConfig } from '../../shared/config/runtime-config.ts';
import { onFirstCall } from '../../shared/lambda/lambda-handlers.ts';
import type { ConfigCaches } from '../../shared/pipeline/config-caches.ts';
import { createAdminServices } from '../../shared/wiring/create-admin-services.ts';
import { createLogger } from '../../shared/wiring/logger.ts';

/** The admin function: no URL; the admin CLI invokes it with one command per event. */
function createCommandRunner(config: RuntimeConfig, dependencies: { caches?: ConfigCaches } = {}) {
  const logger = createLogger('gateway-admin', config);
  const services = createAdminServices(config, dependencies);
  return async (event: unknown) => {
    // The admin function is invoked by the admin CLI only (the console runs its commands itself, as the member).
    const result = await runAdminCommand(services, event, ADMIN_CLI_ACTOR);
    const command = typeof event === 'object' && event !== null && 'command' in event ? String(event.command) : 'unknown';
    // Never log the event itself: it may carry a provider key.
    if (result.ok) logger.info('admin command', { command });
    else logger.warn('admin command refused', { command, status: result.error.status, code: result.error.code, reason: result.error.message });
    return result;
  };
}

/** The handler for a configuration; `caches` are the route groups' when they share the process (the local host). */
export function createHandler(config: RuntimeConfig, dependencies: { caches?: ConfigCaches } = {}) {
  return middy().handler(createCommandRunner(config, dependencies));
}

/** Lambda's entry point: built from the environment on the first invocation. */
export const handler = middy().handler(onFirstCall(() => createCommandRunner(loadRuntimeConfig(process.env))));
