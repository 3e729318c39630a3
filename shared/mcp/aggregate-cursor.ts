import * as z from 'zod';
import { mcpServerNameSchema } from '../core/mcp-names.ts';

/**
 * The bridge's pagination cursor: for each server whose list goes on, the cursor that server gave
 * (servers that finished are left out). Opaque to clients: base64url JSON, checked on the way back in.
 */
const cursorSchema = z.object({ next: z.record(mcpServerNameSchema, z.string()) });

export type ServerPositions = Readonly<Record<string, string>>;

/** Undefined when no server has more: the list is complete. */
export function encodeAggregateCursor(positions: ServerPositions): string | undefined {
  if (Object.keys(positions).length === 0) return undefined;
  return Buffer.from(JSON.stringify({ next: positions }), 'utf8').toString('base64url');
}

/**
 * Where a server's list goes on; undefined when the cursor has no position for it. Own properties only:
 * "constructor" is a valid server name, and every object inherits one.
 */
export function positionOf(positions: ServerPositions, server: string): string | undefined {
  return Object.hasOwn(positions, server) ? positions[server] : undefined;
}

/** The positions of a cursor this bridge handed out; undefined for anything else. */
export function decodeAggregateCursor(cursor: string): ServerPositions | undefined {
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data.next : undefined;
  } catch {
    return undefined;
  }
}
