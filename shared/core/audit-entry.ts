import * as z from 'zod';

/** Who made a change: a person signed in to the console, or whoever ran the admin CLI (its IAM permission). */
export const auditActorSchema = z.union([
  z.object({ kind: z.literal('console'), member: z.string() }),
  z.object({ kind: z.literal('admin-cli') }),
]);
export type AuditActor = z.infer<typeof auditActorSchema>;

/** The actor of every command the admin function runs: whoever ran the admin CLI (or its local stand-in). */
export const ADMIN_CLI_ACTOR: AuditActor = { kind: 'admin-cli' };

/** Where organisation-wide changes (the rate card) are recorded: not a valid project id. */
export const ORG_AUDIT_PROJECT = '@org';

/**
 * One change to a project, kept for its owners to read: who, what (the admin command and its arguments,
 * secrets left out), when. `projectId` is `@org` for organisation-wide changes (the rate card).
 */
export const auditEntrySchema = z.object({
  projectId: z.string(),
  entryId: z.string(),
  at: z.string(),
  actor: auditActorSchema,
  command: z.string(),
  /** The command's arguments minus the project id and any secret, e.g. `{ keyId, name }`. */
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export function describeActor(actor: AuditActor): string {
  return actor.kind === 'console' ? actor.member : 'admin CLI';
}

export function describeAuditEntry(entry: AuditEntry) {
  return { at: entry.at, actor: describeActor(entry.actor), command: entry.command, details: entry.details };
}
