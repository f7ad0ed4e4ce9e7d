import type { Knex } from 'knex';
import { z } from 'zod';
import {
  forbidden,
  insertShareLink,
  listShareLinks,
  notFound,
  PUBLIC_LINKS_DISABLED_MESSAGE,
  publicLinksDisabled,
  revokeShareLinkIn,
  validate,
  type RequestContext,
} from '@fieldbook/core';
import type { Caller } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { idSchema } from '../projects/inputs.ts';
import {
  assertProjectAllowsPublicLinks,
  readableObjectProject,
  SHARE_OBJECT_TYPES,
  type ShareObjectType,
} from './objects.ts';
import { parseSharePayload } from './payload.ts';
import type { ShareRow } from './share-row.ts';
import type { ShareTypes } from './types.ts';

export { PUBLIC_LINKS_DISABLED_MESSAGE, publicLinksDisabled };

/**
 * Sharing publicly widens who may read an object, so it takes the permission to change access
 * (`acl:write`, Contributor and above) on top of read access to the object itself.
 */
const SHARE_PERMISSION = 'acl:write';

/** The share types research owns and those other modules registered (dashboards). */
function objectSchema(types: ShareTypes) {
  const known = [...SHARE_OBJECT_TYPES, ...types.types()];
  const objectType = z
    .string()
    .refine((t) => known.includes(t), { error: `objectType is one of ${known.join(', ')}.` });
  return z.object({ objectType, objectId: idSchema('objectId') });
}

const isBuiltIn = (type: string): type is ShareObjectType => (SHARE_OBJECT_TYPES as readonly string[]).includes(type);

/**
 * NOT_FOUND unless the caller may read the object. A new link to one of research's objects also
 * needs its project to allow public links; another module's type answers for its own objects.
 */
async function assertShareable(
  trx: Knex.Transaction,
  caller: Caller,
  types: ShareTypes,
  type: string,
  id: string,
  creating: boolean,
): Promise<void> {
  if (isBuiltIn(type)) {
    const project = await readableObjectProject(trx, caller, type, id);
    if (creating) assertProjectAllowsPublicLinks(project);
    return;
  }
  const provider = types.get(type);
  if (!provider) throw notFound('That share link');
  await provider.assertReadable(trx, caller, id);
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
    return insertShareLink(trx, caller, { objectType, objectId, payload });
  });
}

/** Ends a link at once: the next request with its token finds nothing (nothing is cached). */
export async function revokeShareLink(ctx: RequestContext, args: unknown, types: ShareTypes): Promise<ShareRow> {
  const caller = callerOf(ctx, SHARE_PERMISSION);
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx((trx) =>
    revokeShareLinkIn<ShareRow>(trx, caller, id, {
      objectTypes: [...SHARE_OBJECT_TYPES, ...types.types()],
      assertReadable: (share) => assertShareable(trx, caller, types, share.object_type, share.object_id, false),
    }),
  );
}

/** The links of one object, newest first; revoked ones only when asked for. */
export async function shareLinks(ctx: RequestContext, args: unknown, types: ShareTypes): Promise<ShareRow[]> {
  const caller = callerOf(ctx, SHARE_PERMISSION);
  const { objectType, objectId, includeRevoked } = validate(
    objectSchema(types).extend({ includeRevoked: z.boolean().nullish() }),
    args,
  );
  return ctx.tx(async (trx) => {
    await assertShareable(trx, caller, types, objectType, objectId, false);
    return listShareLinks<ShareRow>(trx, caller.workspaceId, { objectType, objectId, includeRevoked });
  });
}
