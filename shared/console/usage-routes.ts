import { consoleCsv, consoleJson } from './console-http.ts';
import type { ConsoleRoute } from './console-route.ts';
import { exportUsageRows, MAX_EXPORTED_ROWS, parseUsageRange, summarizeProjectUsage } from './project-usage.ts';
import { toCsv } from './usage-csv.ts';

/** Usage of the project over `?from=…&to=…` (UTC days): charts and top requests, and the rows as CSV. */
export const usageRoutes: ConsoleRoute[] = [
  {
    method: 'GET',
    path: '/projects/:projectId/usage',
    access: 'member',
    async handle({ deps, request, params }) {
      const range = parseUsageRange(params.projectId ?? '', request.query.get('from'), request.query.get('to'));
      return consoleJson(200, await summarizeProjectUsage(deps.usage, range));
    },
  },
  {
    method: 'GET',
    path: '/projects/:projectId/usage.csv',
    access: 'member',
    async handle({ deps, request, params }) {
      const range = parseUsageRange(params.projectId ?? '', request.query.get('from'), request.query.get('to'));
      const { columns, rows, truncated } = await exportUsageRows(deps.usage, range);
      const filename = `usage-${range.projectId}-${range.from}-to-${range.to}.csv`;
      // More rows than a function may answer with: say so, rather than cut silently.
      return consoleCsv(filename, toCsv(columns, rows), truncated ? { 'x-usage-truncated': `first ${MAX_EXPORTED_ROWS} rows` } : {});
    },
  },
];
