import * as z from 'zod';

/**
 * People are named by a member id: their e-mail address in the console (the Cognito `email` claim), or any
 * name an admin gives a member key with `key create --member`. Compared case-insensitively, so stored in
 * lower case.
 */
export const memberIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(256)
  .regex(/^[^\s/#]+$/, 'member ids are e-mail addresses or names without spaces, "/" or "#"')
  .transform((member) => member.toLowerCase());

/** An owner manages the project; a member sees it and creates, disables and revokes their own member keys. */
export const projectRoleSchema = z.enum(['owner', 'member']);
export type ProjectRole = z.infer<typeof projectRoleSchema>;

export const membershipSchema = z.object({
  projectId: z.string(),
  member: z.string(),
  role: projectRoleSchema,
  addedAt: z.string(),
});
export type Membership = z.infer<typeof membershipSchema>;

/** What the console and the CLI show of a membership. */
export function describeMembership(membership: Membership) {
  return { project_id: membership.projectId, member: membership.member, role: membership.role, added_at: membership.addedAt };
}
