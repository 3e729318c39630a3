import { loadOnFirstUse } from '../core/load-on-first-use.ts';
import type { RouteHandler, RouteTable } from './route-group.ts';

/**
 * Routes whose handlers load on first use: their paths and methods are known at once (dispatch, 405 and
 * `allow`), their code (in a chunk of its own once bundled) when a request first needs it, so cold starts
 * of the other routes do not pay for it. A load that fails is tried again by the next request.
 */
export function lazyRoutes(methods: Readonly<Record<string, readonly string[]>>, load: () => Promise<RouteTable>): RouteTable {
  const loaded = loadOnFirstUse(load);
  const table: RouteTable = {};
  for (const [path, verbs] of Object.entries(methods)) {
    table[path] = Object.fromEntries(
      verbs.map((verb): [string, RouteHandler] => [
        verb,
        async (request, services, route) => {
          const handler = (await loaded())[path]?.[verb];
          if (!handler) throw new Error(`The lazily loaded routes have no ${verb} ${path}.`);
          return handler(request, services, route);
        },
      ]),
    );
  }
  return table;
}
