// A handler that reaches Node's HTTP module as the AWS SDK's HTTP handler does (`import()`), and node:fs as
// most code does (a static import): in a bundle, neither may build the ESM facade whose getters load undici.
import { readFileSync } from 'node:fs';

export async function handler(): Promise<{ agent: string; request: string; undici: boolean; read: boolean }> {
  const http = await import('node:http');
  const { Agent, request } = http.default ?? http;
  return {
    agent: typeof Agent,
    request: typeof request,
    // Node's list of the built-in modules it has loaded (internal, untyped).
    undici: (process as unknown as { moduleLoadList: string[] }).moduleLoadList.some((name) => name.includes('undici')),
    read: typeof readFileSync === 'function',
  };
}
