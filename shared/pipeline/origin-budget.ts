/**
 * What an answer that sends nothing until it is complete (JSON) may take behind CloudFront, which gives up
 * on an origin silent for its read timeout: three quarters of it, the rest margin for the gateway's own
 * work and the network.
 */
export function originBudgetMs(readTimeoutMs: number): number {
  return Math.floor((readTimeoutMs * 3) / 4);
}
