import type { UpstreamFetch } from '../../core/ports.ts';

/** Sends `mock://` URLs to the offline provider and everything else to the real network. */
export function withMockProvider(realFetch: UpstreamFetch, mockFetch: UpstreamFetch): UpstreamFetch {
  return (url, init) => (url.startsWith('mock://') ? mockFetch(url, init) : realFetch(url, init));
}
