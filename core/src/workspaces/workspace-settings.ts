import { z } from 'zod';
import { recordAudit } from '../audit/audit-log.ts';
import { notFound } from '../errors/app-error.ts';
import { validate } from '../errors/validate.ts';
import type { RequestContext } from '../kernel/request-context.ts';
import type { WorkspacesDeps } from './deps.ts';
import { workspaceChanged } from './directory.ts';
import { WORKSPACE_LIMITS } from './limits.ts';
import { Workspace } from './models/index.ts';
import { membershipView, workspaceView, type MembershipView, type WorkspaceView } from './views.ts';

/** The workspace the request addresses, for its members; null elsewhere. */
export async function currentWorkspace(deps: WorkspacesDeps, ctx: RequestContext): Promise<WorkspaceView | null> {
  if (!ctx.workspace || !ctx.membership) return null;
  const id = ctx.workspace.id;
  return ctx.tx(async (trx) => {
    const row = await Workspace.query(trx).findById(id);
    return row ? workspaceView(trx, deps.config, row) : null;
  });
}

/** The signed-in person's role and permissions in the workspace the request addresses. */
export async function myMembership(deps: WorkspacesDeps, ctx: RequestContext): Promise<MembershipView | null> {
  const { membership } = ctx;
  if (!membership) return null;
  const workspace = await currentWorkspace(deps, ctx);
  return workspace ? membershipView(workspace, membership) : null;
}

/** 3-digit colours expand to 6 (002 §5). */
const colorSchema = z
  .string()
  .trim()
  .regex(/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i, 'A colour is a hex value such as #1a2b3c.')
  .transform((c) => (c.length === 4 ? `#${[...c.slice(1)].map((d) => d + d).join('')}` : c).toLowerCase());

const updateSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Enter a name for the workspace.')
    .max(WORKSPACE_LIMITS.teamName, `A workspace name can be at most ${WORKSPACE_LIMITS.teamName} characters long.`)
    .nullish(),
  primaryColor: colorSchema.nullish(),
  logoUrl: z
    .string()
    .trim()
    .max(2000, 'A logo URL can be at most 2000 characters long.')
    .refine((u) => u === '' || /^https:\/\/[^\s]+$/.test(u), 'A logo URL must start with https://.')
    .nullish(),
  publicLinksDisabled: z.boolean().nullish(),
});

/** Renames or rebrands the workspace (team manage); only the fields given change. */
export async function updateWorkspace(
  deps: WorkspacesDeps,
  ctx: RequestContext,
  args: { input?: unknown },
): Promise<WorkspaceView> {
  const { viewer, workspace } = ctx.authorize('team:manage');
  const valid = validate(updateSchema, args.input ?? {});
  const patch: Partial<Pick<Workspace, 'name' | 'primaryColor' | 'logoUrl' | 'publicLinksDisabled'>> = {};
  if (valid.name != null) patch.name = valid.name;
  if (valid.primaryColor !== undefined) patch.primaryColor = valid.primaryColor;
  if (valid.logoUrl !== undefined) patch.logoUrl = valid.logoUrl || null;
  if (valid.publicLinksDisabled != null) patch.publicLinksDisabled = valid.publicLinksDisabled;
  return ctx.tx(async (trx) => {
    const before = await Workspace.query(trx).findById(workspace.id);
    if (!before) throw notFound('That workspace');
    const after = Object.keys(patch).length
      ? await Workspace.query(trx).patchAndFetchById(workspace.id, patch)
      : before;
    if (patch.name !== undefined) await workspaceChanged(deps.invalidations, trx, workspace.id);
    const changes = Object.fromEntries(
      Object.keys(patch).map((k) => [k, { old: before[k as keyof typeof patch], new: after[k as keyof typeof patch] }]),
    );
    if (Object.keys(changes).length) {
      await recordAudit(trx, {
        workspaceId: workspace.id,
        actorUserId: viewer.userId,
        kind: 'WORKSPACE',
        subjectType: 'workspace',
        subjectId: workspace.id,
        metadata: { action: 'updated', changes },
      });
    }
    return workspaceView(trx, deps.config, after);
  });
}
