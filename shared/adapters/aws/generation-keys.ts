import type { UsageRecord } from '../../core/usage-record.ts';

/**
 * The partition keys of the generations table (table-definitions.ts): a project's records by request id,
 * and the items that find them or their answers by another id. `@` cannot begin a project id, so none of
 * the latter meets a record's key.
 */

/** A record's partition: its project's, under the request id (a reused X-Request-ID holds several records). */
export function generationKey(projectId: string, requestId: string): string {
  return `${projectId}#${requestId}`;
}

/** The key of a stored answer's owner item (any project's: the owner item says whose it is). */
export function storedResponseKey(responseId: string): string {
  return `@response#${responseId}`;
}

/**
 * The partition of the aliases of a project's answer ids: one small item per record (its record id as the
 * sort key) naming the record, so that a generation is found by the id the client found in the answer's
 * body as well as by its request id, within the same project only.
 */
export function answerAliasKey(projectId: string, answerId: string): string {
  return `@answer#${projectId}#${answerId}`;
}

/** Longer ids get no alias: a partition key holds at most 2,048 bytes, and 256 characters are at most 1,024 in UTF-8. */
const MAX_ALIASED_ANSWER_ID = 256;

/** A record whose answer id differs from its request id is written with an alias item of that id. */
export function hasAnswerAlias(record: UsageRecord): record is UsageRecord & { answerId: string } {
  return Boolean(record.answerId) && record.answerId !== record.requestId && (record.answerId?.length ?? 0) <= MAX_ALIASED_ANSWER_ID;
}

/**
 * The sort key of the one owner item of a response id, so that a conditional put can see whether another
 * project holds it (items written before this key hold the record's id; findStoredResponse reads both).
 */
export const STORED_RESPONSE_OWNER = 'owner';
