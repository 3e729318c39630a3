import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { RuntimeConfig } from '../../shared/config/runtime-config.ts';
import type { TableNames } from './embedded-store.ts';

/** What the backend process is started with (its argument, as JSON). */
export interface BackendStart {
  storeDirectory: string;
  tables: TableNames;
}

/** The calls the host makes to the backend process, each answered once under its id. */
export type BackendCall =
  | { op: 'isEmpty' }
  | { op: 'startWriter'; config: RuntimeConfig }
  | { op: 'deliver'; event: SQSEvent }
  | { op: 'closeStore' };

export interface BackendResults {
  isEmpty: boolean;
  startWriter: null;
  deliver: SQSBatchResponse;
  closeStore: null;
}

export type BackendRequest = BackendCall & { id: number };

/** What the backend process sends: once `ready` (or `failed` to start), then one answer per call. */
export type BackendMessage =
  | { kind: 'ready'; endpoint: string }
  /** `code`: the error's own (`LEVEL_DATABASE_NOT_OPEN`…), so the host can tell a store another process holds. */
  | { kind: 'failed'; message: string; code?: string }
  | { kind: 'answer'; id: number; result: unknown }
  | { kind: 'error'; id: number; message: string };
