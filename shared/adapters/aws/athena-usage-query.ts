import {
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  type AthenaClient,
  type ColumnInfo,
  type Row,
} from '@aws-sdk/client-athena';
import type { UsageQueryRunner, UsageResultRow } from '../../core/ports.ts';

export interface AthenaUsageQueryOptions {
  workGroup: string;
  database: string;
  /** How long to wait for a query before giving up (the console function's time-out is the limit). */
  timeoutMs: number;
  /** Pause between status checks; injected so tests do not wait. */
  wait?: (ms: number) => Promise<void>;
  now?: () => number;
}

const INTEGER_TYPES = new Set(['tinyint', 'smallint', 'integer', 'bigint']);
const DECIMAL_TYPES = new Set(['double', 'float', 'real', 'decimal']);

/** Athena's execution parameters are SQL literals: a string goes in quotes, its quotes doubled. */
export function sqlStringLiteral(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * Usage queries in AWS: Athena over the Glue table of the usage files, in the stack's workgroup (which
 * enforces where results go). Polls until the query ends; converts Athena's text cells by column type.
 */
export class AthenaUsageQuery implements UsageQueryRunner {
  private readonly wait: (ms: number) => Promise<void>;
  private readonly now: () => number;

  private readonly client: AthenaClient;
  private readonly options: AthenaUsageQueryOptions;

  constructor(client: AthenaClient, options: AthenaUsageQueryOptions) {
    this.client = client;
    this.options = options;
    this.wait = options.wait ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = options.now ?? Date.now;
  }

  async query(sql: string, params: readonly string[]): Promise<UsageResultRow[]> {
    const { QueryExecutionId } = await this.client.send(
      new StartQueryExecutionCommand({
        QueryString: sql,
        WorkGroup: this.options.workGroup,
        QueryExecutionContext: { Database: this.options.database },
        ...(params.length > 0 ? { ExecutionParameters: params.map(sqlStringLiteral) } : {}),
      }),
    );
    if (!QueryExecutionId) throw new Error('Athena started no query.');
    await this.awaitCompletion(QueryExecutionId);
    return this.readResults(QueryExecutionId);
  }

  private async awaitCompletion(queryExecutionId: string): Promise<void> {
    const deadline = this.now() + this.options.timeoutMs;
    for (let pause = 100; ; pause = Math.min(pause * 2, 1000)) {
      const { QueryExecution } = await this.client.send(new GetQueryExecutionCommand({ QueryExecutionId: queryExecutionId }));
      const state = QueryExecution?.Status?.State;
      if (state === 'SUCCEEDED') return;
      if (state === 'FAILED' || state === 'CANCELLED') {
        throw new Error(`The Athena query ${state.toLowerCase()}: ${QueryExecution?.Status?.StateChangeReason ?? 'no reason given'}`);
      }
      if (this.now() + pause > deadline) throw new Error(`The Athena query ${queryExecutionId} did not finish within ${this.options.timeoutMs} ms.`);
      await this.wait(pause);
    }
  }

  private async readResults(queryExecutionId: string): Promise<UsageResultRow[]> {
    const rows: UsageResultRow[] = [];
    let columns: ColumnInfo[] | undefined;
    let nextToken: string | undefined;
    let header = true;
    do {
      const page = await this.client.send(new GetQueryResultsCommand({ QueryExecutionId: queryExecutionId, NextToken: nextToken }));
      columns ??= page.ResultSet?.ResultSetMetadata?.ColumnInfo ?? [];
      for (const row of page.ResultSet?.Rows ?? []) {
        // The first row of a SELECT's results repeats the column names.
        if (header) header = false;
        else rows.push(toResultRow(row, columns));
      }
      nextToken = page.NextToken;
    } while (nextToken);
    return rows;
  }
}

function toResultRow(row: Row, columns: ColumnInfo[]): UsageResultRow {
  const result: UsageResultRow = {};
  columns.forEach((column, index) => {
    const text = row.Data?.[index]?.VarCharValue;
    result[column.Name ?? `column_${index}`] = text === undefined ? null : convertCell(text, column.Type ?? 'varchar');
  });
  return result;
}

function convertCell(text: string, type: string): string | number | boolean {
  if (INTEGER_TYPES.has(type)) {
    const value = Number(text);
    return Number.isSafeInteger(value) ? value : text;
  }
  if (DECIMAL_TYPES.has(type) || type.startsWith('decimal')) return Number(text);
  if (type === 'boolean') return text === 'true';
  return text;
}
