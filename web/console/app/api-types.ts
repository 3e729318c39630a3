import type { describeProject } from '../../../shared/admin/describe-project.ts';
import type { describeAuditEntry } from '../../../shared/core/audit-entry.ts';
import type { describeKey } from '../../../shared/core/key-record.ts';
import type { describeMembership, ProjectRole } from '../../../shared/core/membership.ts';
import type { summarizeProjectUsage } from '../../../shared/console/project-usage.ts';

/** The console API's answers, typed from the functions that build them (types only: nothing is bundled). */
export type Project = ReturnType<typeof describeProject> & { role: ProjectRole };
export type ProjectSummary = { id: string; name: string; role: ProjectRole };
export type Me = { member: string; expires_at: string; projects: ProjectSummary[] };
export type Key = ReturnType<typeof describeKey>;
export type CreatedKey = Key & { key: string };
export type Membership = ReturnType<typeof describeMembership>;
export type Members = { members: Membership[]; removed_members: string[] };
export type AuditEntry = ReturnType<typeof describeAuditEntry>;
export type UsageSummary = Awaited<ReturnType<typeof summarizeProjectUsage>>;
export type { ProjectRole };
