import { z } from 'zod';
import { forbidden, insertShareLink, listShareLinks, PUBLIC_LINKS_DISABLED_MESSAGE, publicLinksDisabled, revokeShareLinkIn, validate, type RequestContext, type ShareLinkRow } from '@fieldbook/core';
import { callerOf } from '../projects/caller.ts';
import { idSchema } from '../projects/inputs.ts';
import { assertProjectAllowsPublicLinks, readableObjectProject, SHARE_OBJECT_TYPES, type ShareObjectType } from './objects.ts';
import { parseSharePayload, type SharePayload } from './payload.ts';

export { PUBLIC_LINKS_DISABLED_MESSAGE, publicLinksDisabled };

export type ShareRow = ShareLinkRow<ShareObjectType, SharePayload>;

/**
 * Sharing publicly widens who may read an object, so it takes the permission to change access
 * (`acl:write`, Contributor and above) on top of read access to the object itself.
 */
const SHARE_PERMISSION = 'acl:write';

const objectTypeSchema = z.enum(SHARE_OBJECT_TYPES, { error: `objectType is one of ${SHARE_OBJECT_TYPES.join(', ')}.` });
const objectSchema = z.object({ objectType: objectTypeSchema, objectId: idSchema('objectId') });

/** Makes a public link to one object (000 §1, §3). */
export async function createShareLink(ctx: RequestContext, args: unknown): Promise<ShareRow> {
  const caller = callerOf(ctx, SHARE_PERMISSION);
  const raw = (args ?? {}) as { payload?: unknown };
  const payload = parseSharePayload(raw.payload);
  const { objectType, objectId } = validate(objectSchema, args);
  return ctx.tx(async (trx) => {
    if (await publicLinksDisabled(trx, caller.workspaceId)) throw forbidden(PUBLIC_LINKS_DISABLED_MESSAGE);
    const project = await readableObjectProject(trx, caller, objectType, objectId);
    assertProjectAllowsPublicLinks(project);
    return insertShareLink(trx, caller, { objectType, objectId, payload });
  });
}

/** Ends a link at once: the next request with its token finds nothing (nothing is cached). */
export async function revokeShareLink(ctx: RequestContext, args: unknown): Promise<ShareRow> {
  const caller = callerOf(ctx, SHARE_PERMISSION);
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx((trx) => revokeShareLinkIn<ShareRow>(trx, caller, id, { objectTypes: SHARE_OBJECT_TYPES, assertReadable: (share) => readableObjectProject(trx, caller, share.object_type, share.object_id) }));
}

const listSchema = objectSchema.extend({ includeRevoked: z.boolean().nullish() });

/** The links of one object, newest first; revoked ones only when asked for. */
export async function shareLinks(ctx: RequestContext, args: unknown): Promise<ShareRow[]> {
  const caller = callerOf(ctx, SHARE_PERMISSION);
  const { objectType, objectId, includeRevoked } = validate(listSchema, args);
  return ctx.tx(async (trx) => {
    await readableObjectProject(trx, caller, objectType, objectId);
    return listShareLinks<ShareRow>(trx, caller.workspaceId, { objectType, objectId, includeRevoked });
  });
}
