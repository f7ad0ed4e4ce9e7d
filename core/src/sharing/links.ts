import type { Knex } from 'knex';
import { recordAudit } from '../audit/audit-log.ts';
import { withTenant } from '../db/tenancy.ts';
import { AppError, badInput, notFound } from '../errors/app-error.ts';
import type { RequestContext } from '../kernel/request-context.ts';
import { can } from '../permissions/authorize.ts';
import { loadMembership } from '../workspaces/directory.ts';
import { generateShareToken } from './token.ts';

/**
 * Public share links (000 §1, §3) kept in the `shares` table, whichever module owns the object.
 * The module says which objects it shares and who may read them; making, listing, ending and
 * opening a link is the same for all of them and lives here.
 */
export interface ShareLinkRow<Type extends string = string, Payload = unknown> {
  id: string;
  workspace_id: string;
  token: string;
  object_type: Type;
  object_id: string;
  payload: Payload;
  created_by: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

/** Who acts on a link: the caller's workspace and user. */
export interface ShareActor {
  workspaceId: string;
  userId: string;
}

export const PUBLIC_LINKS_DISABLED_MESSAGE =
  'Public links are turned off in this workspace. A workspace admin can turn them on in the workspace settings.';

/** The workspace setting (002 §2): while it is on no link can be made and none opens. */
export async function publicLinksDisabled(trx: Knex.Transaction, workspaceId: string): Promise<boolean> {
  const row = (await trx('workspaces').where({ id: workspaceId }).first('public_links_disabled')) as
    | { public_links_disabled: boolean }
    | undefined;
  return row?.public_links_disabled ?? true;
}

const UNIQUE_VIOLATION = '23505';
const TOKEN_ATTEMPTS = 5;

/** Makes the link with a fresh token (drawing again in the astronomically unlikely case of a clash) and audits it. */
export async function insertShareLink<Type extends string, Payload>(
  trx: Knex.Transaction,
  actor: ShareActor,
  link: { objectType: Type; objectId: string; payload: Payload },
): Promise<ShareLinkRow<Type, Payload>> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      // A savepoint, so a clash leaves the outer transaction usable for the next try.
      const share = await trx.transaction(async (sp) => {
        const [inserted] = (await sp('shares')
          .insert({
            workspace_id: actor.workspaceId,
            object_type: link.objectType,
            object_id: link.objectId,
            payload: JSON.stringify(link.payload),
            created_by: actor.userId,
            token: generateShareToken(),
          })
          .returning('*')) as Array<ShareLinkRow<Type, Payload>>;
        return inserted!;
      });
      await auditShareLink(trx, actor, share, 'publicLinkCreated');
      return share;
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION || attempt >= TOKEN_ATTEMPTS) throw error;
    }
  }
}

/** The links of one object, newest first; revoked ones only when asked for. */
export async function listShareLinks<Row extends ShareLinkRow>(
  trx: Knex.Transaction,
  workspaceId: string,
  object: { objectType: string; objectId: string; includeRevoked?: boolean | null; limit?: number },
): Promise<Row[]> {
  const q = trx('shares')
    .where({ workspace_id: workspaceId, object_type: object.objectType, object_id: object.objectId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
  if (!object.includeRevoked) q.whereNull('revoked_at');
  if (object.limit) q.limit(object.limit);
  return (await q) as Row[];
}

/**
 * Ends a link at once: the next request with its token finds nothing (nothing is cached).
 * Whoever may not read the object may not learn it has links (`assertReadable` throws NOT_FOUND);
 * whoever made a link may always end it, even while its object is in the trash.
 */
export async function revokeShareLinkIn<Row extends ShareLinkRow>(
  trx: Knex.Transaction,
  actor: ShareActor,
  id: string,
  owned: { objectTypes: readonly string[]; assertReadable: (share: Row) => Promise<unknown> },
): Promise<Row> {
  const share = (await trx('shares')
    .where({ id, workspace_id: actor.workspaceId })
    .whereIn('object_type', owned.objectTypes)
    .forUpdate()
    .first()) as Row | undefined;
  if (!share) throw notFound('That share link');
  if (share.created_by !== actor.userId) {
    await owned.assertReadable(share).catch((error: unknown) => {
      throw error instanceof AppError && error.errorCode === 'NOT_FOUND' ? notFound('That share link') : error;
    });
  }
  if (share.revoked_at) return share;
  const [revoked] = (await trx('shares').where({ id }).update({ revoked_at: trx.fn.now() }).returning('*')) as Row[];
  await auditShareLink(trx, actor, revoked!, 'publicLinkRevoked');
  return revoked!;
}

function auditShareLink(trx: Knex.Transaction, actor: ShareActor, share: ShareLinkRow, action: string): Promise<void> {
  // Audit entries never hold secrets, and a token opens its object: it is left out.
  return recordAudit(trx, {
    workspaceId: actor.workspaceId,
    actorUserId: actor.userId,
    kind: 'PERMISSION_CHANGE',
    subjectType: share.object_type,
    subjectId: share.object_id,
    metadata: { action, shareId: share.id },
  });
}

/**
 * The one rule every share type follows: a link shows its object only while the person who made
 * it is still a member who may share (Contributor and above, 002 §6 "write the access control
 * list"). A maker who leaves or becomes a viewer takes their links down with them; given the
 * right again, the links they made work again (ending a link for good is revoking it).
 */
export async function makerMayShare(trx: Knex.Transaction, share: ShareLinkRow): Promise<boolean> {
  if (!share.created_by) return false;
  const membership = await loadMembership(trx, share.workspace_id, share.created_by);
  return can(membership, 'acl:write');
}

export const deadShareLink = (): AppError =>
  new AppError('NOT_FOUND', 'This link does not exist or is no longer shared. Ask whoever sent it for a new one.');

/**
 * What the request's share token opens. The token finds its workspace first (the `shares` policy
 * lets a transaction that names a token read that token's row, see migration 0008); the object is
 * then read by `read` in a transaction scoped to that workspace, checking on every request that
 * the link is live, public links are on and its maker may still share (`makerMayShare`), so
 * ending any of them takes effect at once. `read` answers null when the object is gone (in the
 * trash, or no longer shareable): the link is then dead.
 */
export async function openShareLink<Row extends ShareLinkRow, T>(
  app: Knex,
  ctx: RequestContext,
  objectTypes: readonly string[],
  read: (trx: Knex.Transaction, share: Row) => Promise<T | null>,
): Promise<T> {
  const token = ctx.shareToken;
  if (!token) throw badInput('shareToken', 'Open a public link: send its share token in the x-share-token header.');
  const workspaceId = await withTenant(app, {}, async (trx) => {
    await trx.raw("select set_config('app.share_token', ?, true)", [token]);
    const row = (await trx('shares').where({ token }).whereIn('object_type', objectTypes).first('workspace_id')) as
      | { workspace_id: string }
      | undefined;
    return row?.workspace_id ?? null;
  });
  if (!workspaceId) throw deadShareLink();
  return withTenant(app, { workspaceId }, async (trx) => {
    const share = (await trx('shares')
      .where({ token, workspace_id: workspaceId })
      .whereIn('object_type', objectTypes)
      .whereNull('revoked_at')
      .first()) as Row | undefined;
    if (!share || (await publicLinksDisabled(trx, workspaceId)) || !(await makerMayShare(trx, share)))
      throw deadShareLink();
    const object = await read(trx, share);
    if (object === null) throw deadShareLink();
    return object;
  });
}
