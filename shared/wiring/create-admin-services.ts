import type { AdminServices } from '../admin/admin-services.ts';
import type { RuntimeConfig } from '../config/runtime-config.ts';
import { processConfigCaches } from '../pipeline/config-caches.ts';
import { createAdapters, secureRandomBytes } from './create-adapters.ts';

export function createAdminServices(config: RuntimeConfig): AdminServices {
  const adapters = createAdapters(config);
  return {
    ...adapters,
    clock: { now: () => Date.now() },
    randomBytes: secureRandomBytes,
    caches: processConfigCaches,
    allowPrivateUpstreams: config.GATEWAY_ALLOW_PRIVATE_UPSTREAMS,
  };
}
