import type { UsageQueryRunner, UsageResultRow } from '../../shared/core/ports.ts';
import { openLocalUsage } from '../cli/local-usage-query.ts';

/**
 * The local host's usage queries: DuckDB over the usage files of the data directory, with the view
 * Athena's table mirrors. Opened per query (an in-memory database, milliseconds), so every query sees
 * the files written since the last one.
 */
export class DuckDbUsageQuery implements UsageQueryRunner {
  private readonly dataDir: string;

  constructor(dataDir: string) {
    this.dataDir = dataDir;
  }

  async query(sql: string, params: readonly string[]): Promise<UsageResultRow[]> {
    const usage = await openLocalUsage(this.dataDir);
    try {
      const rows = await usage.query(sql, [...params]);
      // The console's queries select scalar columns only; anything nested is passed on as its JSON text.
      return rows.map((row) =>
        Object.fromEntries(Object.entries(row).map(([column, value]) => [column, value !== null && typeof value === 'object' ? JSON.stringify(value) : value])),
      );
    } finally {
      usage.close();
    }
  }
}
