import * as z from 'zod';

export const keyRecordSchema = z.object({
  keyHash: z.string().regex(/^[0-9a-f]{64}$/),
  keyId: z.string(),
  projectId: z.string(),
  name: z.string(),
  /** Safe to show: the prefix and the last four characters. */
  hint: z.string(),
  createdAt: z.string(),
  revokedAt: z.string().optional(),
  /** A disabled key is refused with 403 until enabled again (revocation, 401, is final). */
  disabled: z.boolean().optional(),
  /** Who disabled it (a console member's id, or "admin CLI"): a member may enable again only a key they disabled. */
  disabledBy: z.string().optional(),
  /** The project member the key was issued to; removing the member refuses their keys. */
  member: z.string().optional(),
  /** Requests per minute allowed to this key. */
  rpm: z.number().int().positive().optional(),
  /** When a request with the key was last metered; stamped by the usage writer, not the request path. */
  lastUsedAt: z.string().optional(),
  /** The tool bridge's servers this key may reach; every server of the project when absent, none when empty (mcp-access.ts). */
  mcpServers: z.array(z.string()).optional(),
  /** The bridged tools (`<server>__<tool>`) this key may list and call; every tool of its servers when absent, none when empty. */
  mcpTools: z.array(z.string()).optional(),
});
export type KeyRecord = z.infer<typeof keyRecordSchema>;

/** What listings show of a key: never the hash, never the key. */
export function describeKey(record: KeyRecord) {
  return {
    id: record.keyId,
    project_id: record.projectId,
    name: record.name,
    hint: record.hint,
    created_at: record.createdAt,
    revoked_at: record.revokedAt ?? null,
    status: record.revokedAt ? 'revoked' : record.disabled ? 'disabled' : 'active',
    disabled_by: record.disabled ? (record.disabledBy ?? null) : null,
    member: record.member ?? null,
    rpm: record.rpm ?? null,
    last_used_at: record.lastUsedAt ?? null,
    mcp_servers: record.mcpServers ?? null,
    mcp_tools: record.mcpTools ?? null,
  };
}
