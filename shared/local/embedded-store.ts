import type { AddressInfo } from 'node:net';
import { mkdir } from 'node:fs/promises';
import { CreateTableCommand, DynamoDBClient, ListTablesCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
// dynalite serves the DynamoDB API from a LevelDB directory: the embedded, on-disk store of the local host.
import dynalite from 'dynalite';
import { keysTableDefinition, projectsTableDefinition } from '../adapters/aws/table-definitions.ts';

export interface EmbeddedStore {
  endpoint: string;
  /** True when no project and no key exists yet: a first start. */
  isEmpty(): Promise<boolean>;
  close(): Promise<void>;
}

export interface TableNames {
  keys: string;
  projects: string;
}

/** Starts the DynamoDB-compatible store on a free loopback port, its data under `directory`. */
export async function startEmbeddedStore(directory: string, tables: TableNames): Promise<EmbeddedStore> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const server = dynalite({ path: directory, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections?.();
    });
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
  return new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

async function ensureTables(endpoint: string, tables: TableNames): Promise<void> {
  const client = localClient(endpoint);
  try {
    const existing = new Set((await client.send(new ListTablesCommand({}))).TableNames ?? []);
    for (const definition of [keysTableDefinition(tables.keys), projectsTableDefinition(tables.projects)]) {
      if (!existing.has(definition.TableName ?? '')) await client.send(new CreateTableCommand(definition));
    }
  } finally {
    client.destroy();
  }
}
