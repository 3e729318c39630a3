import middy from '@middy/core';
import { runAdminCommand } from '../../shared/admin/run-admin-command.ts';
import { loadRuntimeConfig } from '../../shared/config/runtime-config.ts';
import { createAdminServices } from '../../shared/wiring/create-admin-services.ts';
import { createLogger } from '../../shared/wiring/logger.ts';

/** The admin function: no URL; the admin CLI invokes it with one command per event. */
const config = loadRuntimeConfig(process.env);
const logger = createLogger('gateway-admin');
const services = createAdminServices(config);

export const handler = middy().handler(async (event: unknown) => {
  const result = await runAdminCommand(services, event);
  const command = typeof event === 'object' && event !== null && 'command' in event ? String(event.command) : 'unknown';
  // Never log the event itself: it may carry a provider key.
  if (result.ok) logger.info('admin command', { command });
  else logger.warn('admin command refused', { command, status: result.error.status, code: result.error.code, reason: result.error.message });
  return result;
});
