import { z } from 'zod';
import { badInput } from '../errors/app-error.ts';
import { validate } from '../errors/validate.ts';
import type { RequestContext } from '../kernel/request-context.ts';
import { WORKSPACE_LIMITS } from './limits.ts';
import { AuditEntry } from './models/index.ts';
import { usersById, type UserView } from './views.ts';

export interface AuditEntryView {
  id: string;
  kind: string;
  actor: UserView | null;
  subjectType: string | null;
  subjectId: string | null;
  metadata: Record<string, unknown>;
  createdAt: Date;
}

const schema = z.object({
  first: z
    .number()
    .int()
    .min(1, 'Ask for at least 1 audit entry.')
    .max(WORKSPACE_LIMITS.pageSize, `Ask for at most ${WORKSPACE_LIMITS.pageSize} audit entries at once.`)
    .nullish(),
  after: z.string().max(200).nullish(),
});

/**
 * Newest first; the cursor is the (created_at, id) of the last entry shown, so new entries never
 * shift pages. The time travels as PostgreSQL's own text, keeping its microseconds.
 */
const encode = (e: AuditEntry & { cursorAt?: string }): string =>
  Buffer.from(JSON.stringify([e.cursorAt, e.id])).toString('base64url');

function decode(cursor: string): [string, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      !Number.isNaN(Date.parse(String(value[0]))) &&
      /^[0-9a-f-]{36}$/.test(String(value[1]))
    ) {
      return [String(value[0]), String(value[1])];
    }
  } catch {
    // falls through to the error below
  }
  throw badInput('after', 'This list cursor is not valid. Start again from the first page.');
}

/** The workspace's audit log (001 §3.11), for those who may read it: workspace admins. */
export async function listAuditLog(
  ctx: RequestContext,
  args: unknown,
): Promise<{ nodes: AuditEntryView[]; endCursor: string | null }> {
  const { workspace } = ctx.authorize('auditLogs:read');
  const valid = validate(schema, args);
  const first = valid.first ?? 50;
  return ctx.tx(async (trx) => {
    const q = AuditEntry.query(trx)
      .select('audit_log.*', trx.raw('created_at::text as cursor_at'))
      .where({ workspace_id: workspace.id });
    if (valid.after) {
      const [at, id] = decode(valid.after);
      q.whereRaw('(created_at, id) < (?::timestamptz, ?::uuid)', [at, id]);
    }
    const rows = await q
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(first + 1);
    const page = rows.slice(0, first);
    const actors = await usersById(
      trx,
      page.flatMap((e) => (e.actorUserId ? [e.actorUserId] : [])),
    );
    return {
      nodes: page.map((e) => ({
        id: e.id,
        kind: e.kind,
        actor: e.actorUserId ? (actors.get(e.actorUserId) ?? null) : null,
        subjectType: e.subjectType,
        subjectId: e.subjectId,
        metadata: e.metadata,
        createdAt: e.createdAt,
      })),
      endCursor: rows.length > first ? encode(page[page.length - 1]!) : null,
    };
  });
}
