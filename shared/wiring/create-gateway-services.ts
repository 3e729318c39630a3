import type { RuntimeConfig } from '../config/runtime-config.ts';
import { processConfigCaches } from '../gateway/config-caches.ts';
import type { GatewayServices } from '../gateway/gateway-services.ts';
import { createMockProviderFetch, withMockProvider } from '../upstream/mock-provider.ts';
import { createAdapters, secureRandomBytes } from './create-adapters.ts';

/** The request path's services from the cold-start configuration. */
export function createGatewayServices(config: RuntimeConfig): GatewayServices {
  const adapters = createAdapters(config);
  const clock = { now: () => Date.now() };
  return {
    keys: adapters.keys,
    projects: adapters.projects,
    secrets: adapters.secrets,
    fetch: withMockProvider(
      (url, init) => fetch(url, init),
      createMockProviderFetch({ wordDelayMs: config.GATEWAY_MOCK_WORD_DELAY_MS, now: clock.now }),
    ),
    clock,
    randomBytes: secureRandomBytes,
    caches: processConfigCaches,
    settings: { upstreamFirstByteTimeoutMs: config.GATEWAY_UPSTREAM_FIRST_BYTE_TIMEOUT_MS },
  };
}
