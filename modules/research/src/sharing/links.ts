import type { Knex } from 'knex';
import { z } from 'zod';
import { AppError, forbidden, notFound, recordAudit, validate, type RequestContext } from '@fieldbook/core';
import type { Caller } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { idSchema } from '../projects/inputs.ts';
import { assertProjectAllowsPublicLinks, readableObjectProject, SHARE_OBJECT_TYPES, type ShareObjectType } from './objects.ts';
import { parseSharePayload, type SharePayload } from './payload.ts';
import { generateShareToken } from './token.ts';
import type { ShareTypes } from './types.ts';

export interface ShareRow {
  id: string;
  workspace_id: string;
  token: string;
  /** One of research's types (ShareObjectType) or one another module registered. */
  object_type: string;
  object_id: string;
  payload: SharePayload;
  created_by: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

/**
 * Sharing publicly widens who may read an object, so it takes the permission to change access
 * (`acl:write`, Contributor and above) on top of read access to the object itself.
 */
const SHARE_PERMISSION = 'acl:write';

/** The share types research owns and those other modules registered (dashboards). */
function objectSchema(types: ShareTypes) {
  const known = [...SHARE_OBJECT_TYPES, ...types.types()];
  const objectType = z.string().refine((t) => known.includes(t), { error: `objectType is one of ${known.join(', ')}.` });
  return z.object({ objectType, objectId: idSchema('objectId') });
}

const isBuiltIn = (type: string): type is ShareObjectType => (SHARE_OBJECT_TYPES as readonly string[]).includes(type);

/**
 * NOT_FOUND unless the caller may read the object. A new link to one of research's objects also
 * needs its project to allow public links; another module's type answers for its own objects.
 */
async function assertShareable(trx: Knex.Transaction, caller: Caller, types: ShareTypes, type: string, id: string, creating: boolean): Promise<void> {
  if (isBuiltIn(type)) {
    const project = await readableObjectProject(trx, caller, type, id);
    if (creating) assertProjectAllowsPublicLinks(project);
    return;
  }
  const provider = types.get(type);
  if (!provider) throw notFound('That share link');
  await provider.assertReadable(trx, caller, id);
}

export const PUBLIC_LINKS_DISABLED_MESSAGE =
  'Public links are turned off in this workspace. A workspace admin can turn them on in the workspace settings.';

/** The workspace setting (002 §2): while it is on no link can be made and none opens. */
export async function publicLinksDisabled(trx: Knex.Transaction, workspaceId: string): Promise<boolean> {
  const row = (await trx('workspaces').where({ id: workspaceId }).first('public_links_disabled')) as { public_links_disabled: boolean } | undefined;
  return row?.public_links_disabled ?? true;
}

const UNIQUE_VIOLATION = '23505';
const TOKEN_ATTEMPTS = 5;

/** Inserts the link, drawing a fresh token in the (astronomically unlikely) case of a clash. */
async function insertShare(trx: Knex.Transaction, row: Omit<ShareRow, 'id' | 'token' | 'created_at' | 'revoked_at'>): Promise<ShareRow> {
  for (let attempt = 1; ; attempt += 1) {
    const token = generateShareToken();
    try {
      // A savepoint, so a clash leaves the outer transaction usable for the next try.
      return await trx.transaction(async (sp) => {
        const [inserted] = (await sp('shares')
          .insert({ ...row, payload: JSON.stringify(row.payload), token })
          .returning('*')) as ShareRow[];
        return inserted!;
      });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== UNIQUE_VIOLATION || attempt >= TOKEN_ATTEMPTS) throw error;
    }
  }
}

/** Makes a public link to one object (000 §1, §3). */
export async function createShareLink(ctx: RequestContext, args: unknown, types: ShareTypes): Promise<ShareRow> {
  const caller = callerOf(ctx, SHARE_PERMISSION);
  const raw = (args ?? {}) as { payload?: unknown };
  const payload = parseSharePayload(raw.payload);
  const { objectType, objectId } = validate(objectSchema(types), args);
  return ctx.tx(async (trx) => {
    if (await publicLinksDisabled(trx, caller.workspaceId)) throw forbidden(PUBLIC_LINKS_DISABLED_MESSAGE);
    await assertShareable(trx, caller, types, objectType, objectId, true);
    const share = await insertShare(trx, {
      workspace_id: caller.workspaceId,
      object_type: objectType,
      object_id: objectId,
      payload,
      created_by: caller.userId,
    });
    await audit(trx, caller, share, 'publicLinkCreated');
    return share;
  });
}

/** Ends a link at once: the next request with its token finds nothing (nothing is cached). */
export async function revokeShareLink(ctx: RequestContext, args: unknown, types: ShareTypes): Promise<ShareRow> {
  const caller = callerOf(ctx, SHARE_PERMISSION);
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    const share = (await trx('shares').where({ id, workspace_id: caller.workspaceId }).forUpdate().first()) as ShareRow | undefined;
    if (!share) throw notFound('That share link');
    // Whoever may not read the object may not learn it has links; whoever made a link may always
    // end it, even while its object is in the trash.
    if (share.created_by !== caller.userId) {
      await assertShareable(trx, caller, types, share.object_type, share.object_id, false).catch((error: unknown) => {
        throw error instanceof AppError && error.errorCode === 'NOT_FOUND' ? notFound('That share link') : error;
      });
    }
    if (share.revoked_at) return share;
    const [revoked] = (await trx('shares').where({ id }).update({ revoked_at: trx.fn.now() }).returning('*')) as ShareRow[];
    await audit(trx, caller, revoked!, 'publicLinkRevoked');
    return revoked!;
  });
}


/** The links of one object, newest first; revoked ones only when asked for. */
export async function shareLinks(ctx: RequestContext, args: unknown, types: ShareTypes): Promise<ShareRow[]> {
  const caller = callerOf(ctx, SHARE_PERMISSION);
  const { objectType, objectId, includeRevoked } = validate(objectSchema(types).extend({ includeRevoked: z.boolean().nullish() }), args);
  return ctx.tx(async (trx) => {
    await assertShareable(trx, caller, types, objectType, objectId, false);
    const q = trx('shares')
      .where({ workspace_id: caller.workspaceId, object_type: objectType, object_id: objectId })
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
    if (!includeRevoked) q.whereNull('revoked_at');
    return (await q) as ShareRow[];
  });
}

function audit(trx: Knex.Transaction, caller: Caller, share: ShareRow, action: string): Promise<void> {
  // Audit entries never hold secrets, and a token opens its object: it is left out.
  return recordAudit(trx, {
    workspaceId: caller.workspaceId,
    actorUserId: caller.userId,
    kind: 'PERMISSION_CHANGE',
    subjectType: share.object_type,
    subjectId: share.object_id,
    metadata: { action, shareId: share.id },
  });
}
