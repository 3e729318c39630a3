import type { AddressInfo } from 'node:net';
import { mkdir } from 'node:fs/promises';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ListTablesCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
// dynalite serves the DynamoDB API from a LevelDB directory: the embedded, on-disk store of the local host.
import dynalite from 'dynalite';
import { awsClientConfig } from '../../shared/wiring/aws-client-config.ts';
import { startTransactionalFront, type TransactionalFront } from './transactional-front.ts';
import {
  countersTableDefinition,
  generationsTableDefinition,
  keysTableDefinition,
  projectsTableDefinition,
} from '../../shared/adapters/aws/table-definitions.ts';

export interface EmbeddedStore {
  endpoint: string;
  /** True when no project and no key exists yet: a first start. */
  isEmpty(): Promise<boolean>;
  close(): Promise<void>;
}

export interface TableNames {
  keys: string;
  projects: string;
  /** The metering and rate-limit tables; absent in stores that only hold configuration (some tests). */
  generations?: string;
  counters?: string;
}

/**
 * Starts the DynamoDB-compatible store on a free loopback port, its data under `directory`. `endpoint` is
 * the transactional front (see transactional-front.ts); dynalite listens behind it on its own port.
 */
export async function startEmbeddedStore(directory: string, tables: TableNames): Promise<EmbeddedStore> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const server = dynalite({ path: directory, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const closeDynalite = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections?.();
    });
  // dynalite lacks TransactWriteItems: clients talk to the front, which adds it and relays the rest.
  let front: TransactionalFront;
  try {
    // Beside the LevelDB directory, not in it: the transactions a crash cut off, undone on the next start.
    front = await startTransactionalFront(port, `${directory}.transactions.jsonl`);
  } catch (error) {
    await closeDynalite();
    throw error;
  }
  const endpoint = front.endpoint;
  const close = async () => {
    await front.close();
    await closeDynalite();
  };
  try {
    await ensureTables(endpoint, tables);
  } catch (error) {
    await close();
    throw error;
  }
  const isEmpty = async () => {
    const client = localClient(endpoint);
    try {
      for (const TableName of [tables.projects, tables.keys]) {
        const { Count } = await client.send(new ScanCommand({ TableName, Limit: 1, Select: 'COUNT' }));
        if ((Count ?? 0) > 0) return false;
      }
      return true;
    } finally {
      client.destroy();
    }
  };
  return { endpoint, isEmpty, close };
}

function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ ...awsClientConfig('local'), endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

async function ensureTables(endpoint: string, tables: TableNames): Promise<void> {
  const client = localClient(endpoint);
  try {
    const existing = new Set((await client.send(new ListTablesCommand({}))).TableNames ?? []);
    const definitions = [keysTableDefinition(tables.keys), projectsTableDefinition(tables.projects)];
    if (tables.generations) definitions.push(generationsTableDefinition(tables.generations));
    if (tables.counters) definitions.push(countersTableDefinition(tables.counters));
    const created: string[] = [];
    for (const definition of definitions) {
      const name = definition.TableName ?? '';
      if (existing.has(name)) continue;
      await client.send(new CreateTableCommand(definition));
      created.push(name);
    }
    for (const name of created) await untilActive(client, name);
  } finally {
    client.destroy();
  }
}

/**
 * dynalite answers CreateTable with the table CREATING and marks it ACTIVE on a timer, refusing items until
 * then (ResourceNotFoundException): under load the first write of a test or a first request came too soon.
 */
async function untilActive(client: DynamoDBClient, tableName: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus === 'ACTIVE') return;
    if (Date.now() > deadline) throw new Error(`the embedded store's table ${tableName} did not become active`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
