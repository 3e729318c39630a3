/** The offline mock provider now lives in shared/providers/mock/; this re-export keeps the wiring's import working. */
export { createMockProviderFetch, withMockProvider, type MockProviderOptions } from '../providers/mock/mock-provider-fetch.ts';
