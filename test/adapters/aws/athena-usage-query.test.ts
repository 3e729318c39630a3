import { AthenaClient, GetQueryExecutionCommand, GetQueryResultsCommand, StartQueryExecutionCommand } from '@aws-sdk/client-athena';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AthenaUsageQuery, sqlStringLiteral } from '../../../shared/adapters/aws/athena-usage-query.ts';

const column = (Name: string, Type: string) => ({ Name, Type });
const row = (...cells: Array<string | undefined>) => ({ Data: cells.map((VarCharValue) => (VarCharValue === undefined ? {} : { VarCharValue })) });

describe('AthenaUsageQuery', () => {
  let athena: AwsClientStub<AthenaClient>;
  const waits: number[] = [];
  let clock = 0;
  const runner = () =>
    new AthenaUsageQuery(new AthenaClient({ region: 'us-east-1' }), {
      workGroup: 'ModelGateway-usage',
      database: 'model_gateway',
      timeoutMs: 5_000,
      wait: async (ms) => {
        waits.push(ms);
        clock += ms;
      },
      now: () => clock,
    });

  beforeAll(() => {
    athena = mockClient(AthenaClient);
  });
  afterEach(() => {
    athena.reset();
    waits.length = 0;
    clock = 0;
  });

  it('runs the SQL in the workgroup with the parameters as quoted literals, waits for it, and types the cells', async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-1' });
    athena
      .on(GetQueryExecutionCommand)
      .resolvesOnce({ QueryExecution: { Status: { State: 'QUEUED' } } })
      .resolvesOnce({ QueryExecution: { Status: { State: 'RUNNING' } } })
      .resolves({ QueryExecution: { Status: { State: 'SUCCEEDED' } } });
    const metadata = { ColumnInfo: [column('day', 'varchar'), column('requests', 'bigint'), column('cost_usd', 'double'), column('streamed', 'boolean'), column('error_code', 'varchar')] };
    athena
      .on(GetQueryResultsCommand, { QueryExecutionId: 'q-1', NextToken: undefined })
      .resolves({ ResultSet: { ResultSetMetadata: metadata, Rows: [row('day', 'requests', 'cost_usd', 'streamed', 'error_code'), row('2025-03-01', '2', '0.5', 'true', undefined)] }, NextToken: 'page-2' });
    athena
      .on(GetQueryResultsCommand, { QueryExecutionId: 'q-1', NextToken: 'page-2' })
      .resolves({ ResultSet: { ResultSetMetadata: metadata, Rows: [row('2025-03-02', '99999999999999999999', '1', 'false', 'timeout')] } });

    const rows = await runner().query('SELECT … WHERE dt BETWEEN ? AND ? AND project_id = ?', ['2025-03-01', '2025-03-02', "o'brien"]);

    expect(athena.commandCalls(StartQueryExecutionCommand)[0]?.args[0].input).toEqual({
      QueryString: 'SELECT … WHERE dt BETWEEN ? AND ? AND project_id = ?',
      WorkGroup: 'ModelGateway-usage',
      QueryExecutionContext: { Database: 'model_gateway' },
      ExecutionParameters: ["'2025-03-01'", "'2025-03-02'", "'o''brien'"],
    });
    expect(rows).toEqual([
      { day: '2025-03-01', requests: 2, cost_usd: 0.5, streamed: true, error_code: null },
      { day: '2025-03-02', requests: '99999999999999999999', cost_usd: 1, streamed: false, error_code: 'timeout' },
    ]);
    expect(waits).toEqual([100, 200]);
  });

  it('sends no execution parameters for SQL without placeholders', async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-2' });
    athena.on(GetQueryExecutionCommand).resolves({ QueryExecution: { Status: { State: 'SUCCEEDED' } } });
    athena.on(GetQueryResultsCommand).resolves({ ResultSet: { ResultSetMetadata: { ColumnInfo: [column('n', 'integer')] }, Rows: [row('n'), row('1')] } });

    await expect(runner().query('SELECT 1 AS n', [])).resolves.toEqual([{ n: 1 }]);
    expect(athena.commandCalls(StartQueryExecutionCommand)[0]?.args[0].input).not.toHaveProperty('ExecutionParameters');
  });

  it("fails with Athena's reason when the query fails", async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-3' });
    athena.on(GetQueryExecutionCommand).resolves({ QueryExecution: { Status: { State: 'FAILED', StateChangeReason: 'TABLE_NOT_FOUND' } } });

    await expect(runner().query('SELECT 1', [])).rejects.toThrow('The Athena query failed: TABLE_NOT_FOUND');
  });

  it('gives up when the query outlasts the time-out', async () => {
    athena.on(StartQueryExecutionCommand).resolves({ QueryExecutionId: 'q-4' });
    athena.on(GetQueryExecutionCommand).resolves({ QueryExecution: { Status: { State: 'RUNNING' } } });

    await expect(runner().query('SELECT 1', [])).rejects.toThrow('The Athena query q-4 did not finish within 5000 ms.');
  });

  it('quotes string literals for Athena', () => {
    expect(sqlStringLiteral("it's")).toBe("'it''s'");
  });
});
