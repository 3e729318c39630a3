import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { storesUpstreamObjects } from '../../core/endpoints.ts';
import type { LedgerOutcome, UsageLedger } from '../../core/ports.ts';
import type { UsageRecord } from '../../core/usage-record.ts';
import { DynamoGenerationLookup, type UsageLedgerTables } from './dynamo-generation-lookup.ts';
import { answerAliasKey, generationKey, hasAnswerAlias, STORED_RESPONSE_OWNER, storedResponseKey } from './generation-keys.ts';
import { GENERATION_TTL_ATTRIBUTE, generationExpiresAt } from './table-definitions.ts';
import { cancelledByConflictOnly, retryOnConflict } from './transaction-conflicts.ts';
import { cancellationReasons, type DynamoDocuments } from './dynamo-documents.ts';

/** Told about a record whose response id another project owns: the record is applied, the id stays theirs. */
export type ResponseIdTakenListener = (record: UsageRecord & { upstreamId: string }) => void;

/** DynamoDB's limit on the items of one transaction. */
const MAX_TRANSACTION_ITEMS = 100;

/** A record of an answer the provider stores (a response, a video) is written with its owner item. */
function hasOwnerItem(record: UsageRecord): record is UsageRecord & { upstreamId: string } {
  return Boolean(record.upstreamId) && storesUpstreamObjects(record.endpoint);
}

/**
 * Groups records (by index) into transactions of at most 100 items: a record's put, its owner item and its
 * answer alias when it has them, and one spend update per project of the group.
 */
function transactionChunks(indices: number[], recordAt: (index: number) => UsageRecord): number[][] {
  const chunks: number[][] = [];
  let chunk: number[] = [];
  let items = 0;
  let projects = new Set<string>();
  for (const index of indices) {
    const record = recordAt(index);
    const own = 1 + (hasOwnerItem(record) ? 1 : 0) + (hasAnswerAlias(record) ? 1 : 0);
    const newProject = projects.has(record.projectId) ? 0 : 1;
    if (chunk.length > 0 && items + own + projects.size + newProject > MAX_TRANSACTION_ITEMS) {
      chunks.push(chunk);
      chunk = [];
      items = 0;
      projects = new Set();
    }
    chunk.push(index);
    items += own;
    projects.add(record.projectId);
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/**
 * Generation records and project spend in DynamoDB. A record and its cost land in one transaction whose
 * put is conditional on the record id being new: redelivered or duplicated messages change nothing, and
 * two requests that reuse one X-Request-ID are two records, both counted. A record of an answer the
 * provider stores (a response) also writes, in the same transaction, a small item keyed by the upstream
 * id naming its project and provider, so that stored responses are reached only by their project. That
 * put is conditional too (no owner yet, or the same project): the first project to record an id keeps it,
 * whatever another project's upstream answers later with the same id. A record whose answer carried an id
 * of its own (a `chatcmpl-…`, a translated `msg_…`) also writes an alias of that id in the same
 * transaction, keyed by project, answer id and record id: unconditional, since the record's own put already
 * refuses a redelivery. What it wrote is read back through the lookups it extends (dynamo-generation-lookup.ts).
 */
export class DynamoUsageLedger extends DynamoGenerationLookup implements UsageLedger {
  private readonly onResponseIdTaken: ResponseIdTakenListener;

  constructor(client: DynamoDocuments, tables: UsageLedgerTables, onResponseIdTaken: ResponseIdTakenListener = () => undefined) {
    super(client, tables);
    this.onResponseIdTaken = onResponseIdTaken;
  }

  /** One record: true when applied now, false when it was applied before (throws when it failed). */
  async recordOnce(record: UsageRecord): Promise<boolean> {
    const [outcome] = await this.recordAll([record]);
    if (typeof outcome === 'object') throw outcome.failed;
    return outcome === 'applied';
  }

  /**
   * A batch in as few transactions as DynamoDB allows (100 items each): every record's conditional put
   * (and its owner item), and one update per project adding the records' costs together, since a
   * transaction may touch an item once. Records the store already holds cancel the transaction with
   * their reasons: they are set aside as applied before, and the rest is tried again without them. An
   * owner item another project holds cancels it too: that record is tried again without its owner item
   * (it is metered all the same; the id stays the other project's). A transaction cancelled only by
   * conflicts with other writes of the same items (concurrent writers metering one project, a prepaid
   * reservation) is tried again after a short random wait (transaction-conflicts.ts).
   */
  async recordAll(records: readonly UsageRecord[]): Promise<LedgerOutcome[]> {
    const outcomes: LedgerOutcome[] = Array.from({ length: records.length }, () => 'already-applied' as const);
    const firstOf = new Map<string, number>();
    records.forEach((record, index) => {
      if (!firstOf.has(record.recordId)) firstOf.set(record.recordId, index);
    });
    for (const chunk of transactionChunks([...firstOf.values()], (index) => records[index] as UsageRecord)) {
      await this.applyChunk(records, chunk, outcomes);
    }
    // A record id given twice takes the outcome of its first: applied once, or failed alike.
    records.forEach((record, index) => {
      const first = firstOf.get(record.recordId) ?? index;
      if (first !== index) {
        const firstOutcome = outcomes[first];
        outcomes[index] = typeof firstOutcome === 'object' ? firstOutcome : 'already-applied';
      }
    });
    return outcomes;
  }

  private async applyChunk(records: readonly UsageRecord[], chunk: number[], outcomes: LedgerOutcome[]): Promise<void> {
    let remaining = chunk;
    // Records (by index) whose response id another project owns: written without their owner item.
    const refusedClaims = new Set<number>();
    while (remaining.length > 0) {
      const { items, recordOfItem, claimOfItem, unclaimed } = this.transactItems(records, remaining, refusedClaims);
      try {
        await retryOnConflict(() => this.client.transactWrite({ TransactItems: items }), cancelledByConflictOnly);
        for (const index of remaining) outcomes[index] = 'applied';
        for (const index of remaining) {
          const record = records[index];
          if ((refusedClaims.has(index) || unclaimed.has(index)) && record && hasOwnerItem(record)) this.onResponseIdTaken(record);
        }
        return;
      } catch (error) {
        const reasons = cancellationReasons(error);
        const heldBefore = new Set<number>();
        const refusedNow = new Set<number>();
        let otherReason = reasons.length === 0;
        reasons.forEach((reason, item) => {
          const record = recordOfItem[item];
          const claim = claimOfItem[item];
          if (reason.Code === 'ConditionalCheckFailed' && record !== undefined) heldBefore.add(record);
          else if (reason.Code === 'ConditionalCheckFailed' && claim !== undefined) refusedNow.add(claim);
          // A conflict beside records held before: the rest is tried again below, conflicts retried there.
          else if (reason.Code !== 'None' && reason.Code !== 'TransactionConflict') otherReason = true;
        });
        if (otherReason || (heldBefore.size === 0 && refusedNow.size === 0)) {
          for (const index of remaining) outcomes[index] = { failed: error };
          return;
        }
        // outcomes already say 'already-applied' for the records held before.
        for (const index of refusedNow) refusedClaims.add(index);
        remaining = remaining.filter((index) => !heldBefore.has(index));
      }
    }
  }

  /**
   * The transaction's items for the records at `indices`, and which record (by index) each conditional put
   * is for: `recordOfItem` for the records' own puts, `claimOfItem` for owner items. A response id gets one
   * owner item per transaction (DynamoDB allows one operation per item), the first record's; a later record
   * of another project with that id is `unclaimed` (that project will not own it).
   */
  private transactItems(records: readonly UsageRecord[], indices: readonly number[], refusedClaims: ReadonlySet<number>) {
    const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [];
    const recordOfItem: Array<number | undefined> = [];
    const claimOfItem: Array<number | undefined> = [];
    const claimants = new Map<string, string>();
    const unclaimed = new Set<number>();
    // Summed as BigInt: each record's cost is exact up to 2^53, the sum of a batch's need not be.
    const spend = new Map<string, { cost: bigint; count: number; settlement: bigint; released: bigint; prepaid: boolean; updatedAt: string }>();
    for (const index of indices) {
      const record = records[index] as UsageRecord;
      const expiresAt = generationExpiresAt(record.createdAt, this.tables.retentionDays);
      recordOfItem[items.length] = index;
      items.push({
        Put: {
          TableName: this.tables.generations,
          Item: { ...record, generationKey: generationKey(record.projectId, record.requestId), [GENERATION_TTL_ATTRIBUTE]: expiresAt },
          ConditionExpression: 'attribute_not_exists(recordId)',
        },
      });
      if (hasAnswerAlias(record)) items.push({ Put: this.aliasPut(record, expiresAt) });
      if (hasOwnerItem(record) && !refusedClaims.has(index)) {
        const claimant = claimants.get(record.upstreamId);
        if (claimant === undefined) {
          claimants.set(record.upstreamId, record.projectId);
          claimOfItem[items.length] = index;
          items.push({ Put: this.ownerPut(record, record.upstreamId, expiresAt) });
        } else if (claimant !== record.projectId) {
          unclaimed.add(index);
        }
      }
      const project = spend.get(record.projectId) ?? { cost: 0n, count: 0, settlement: 0n, released: 0n, prepaid: false, updatedAt: record.createdAt };
      project.cost += BigInt(record.costNanos);
      project.count += 1;
      // A prepaid request settles against the balance: its reservation back (no longer held), its real cost taken.
      if (record.prepaid) {
        project.prepaid = true;
        project.settlement += BigInt(record.reservedNanos) - BigInt(record.costNanos);
        project.released += BigInt(record.reservedNanos);
      }
      if (record.createdAt > project.updatedAt) project.updatedAt = record.createdAt;
      spend.set(record.projectId, project);
    }
    for (const [projectId, project] of spend) {
      items.push({
        Update: {
          TableName: this.tables.projects,
          Key: { projectId, itemKey: 'usage' },
          UpdateExpression: project.prepaid
            ? 'ADD spentNanos :cost, requestCount :count, availableNanos :settlement, reservedNanos :released SET updatedAt = :now'
            : 'ADD spentNanos :cost, requestCount :count SET updatedAt = :now',
          ExpressionAttributeValues: {
            ':cost': project.cost,
            ':count': project.count,
            ':now': project.updatedAt,
            ...(project.prepaid ? { ':settlement': project.settlement, ':released': -project.released } : {}),
          },
        },
      });
    }
    return { items, recordOfItem, claimOfItem, unclaimed };
  }

  /** The alias of a record's answer id: the record it names, and when it was made (the latest alias wins). */
  private aliasPut(record: UsageRecord & { answerId: string }, expiresAt: number) {
    return {
      TableName: this.tables.generations,
      Item: {
        generationKey: answerAliasKey(record.projectId, record.answerId),
        recordId: record.recordId,
        requestId: record.requestId,
        createdAt: record.createdAt,
        [GENERATION_TTL_ATTRIBUTE]: expiresAt,
      },
    };
  }

  /** The owner item's put: only where no project owns the id yet, or the record's own project does. */
  private ownerPut(record: UsageRecord, responseId: string, expiresAt: number) {
    return {
      TableName: this.tables.generations,
      Item: {
        generationKey: storedResponseKey(responseId),
        recordId: STORED_RESPONSE_OWNER,
        ownerRecordId: record.recordId,
        projectId: record.projectId,
        provider: record.provider,
        model: record.model,
        requestId: record.requestId,
        createdAt: record.createdAt,
        [GENERATION_TTL_ATTRIBUTE]: expiresAt,
      },
      ConditionExpression: 'attribute_not_exists(recordId) OR projectId = :projectId',
      ExpressionAttributeValues: { ':projectId': record.projectId },
    };
  }
}
