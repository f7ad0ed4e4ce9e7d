import type { Knex } from 'knex';
import { z } from 'zod';
import { recordAudit } from '../../audit/audit-log.ts';
import { AppError, notFound } from '../../errors/app-error.ts';
import { validate } from '../../errors/validate.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import type { LoadedPlugin, PluginCatalog } from '../catalog/catalog.ts';
import { findInstallation, installations, type InstallationRow } from './store.ts';

/**
 * Permissions are approved per installation. Installing a plugin approves what its version
 * declares; a later version that declares more runs with the permissions both declared and
 * approved until a workspace admin approves the rest on Settings → Extensions. A permission a new
 * version no longer declares is not used either, approved or not.
 */
type Approved = Pick<InstallationRow, 'approved_permissions'>;

/** What an installation may use: the permissions its plugin declares that an admin approved. */
export function grantedPermissions(plugin: LoadedPlugin, row: Approved): string[] {
  const approved = row.approved_permissions ?? plugin.manifest.permissions;
  return plugin.manifest.permissions.filter((p) => approved.includes(p));
}

/** What the plugin declares that no admin has approved for this installation yet. */
export function pendingPermissions(plugin: LoadedPlugin, row: Approved): string[] {
  const approved = row.approved_permissions;
  return approved ? plugin.manifest.permissions.filter((p) => !approved.includes(p)) : [];
}

/**
 * Installations made before approvals were recorded get the permissions of the version loaded
 * now, once: from then on, a version that declares more waits for an admin.
 */
export async function recordApprovedPermissions(owner: Knex, catalog: PluginCatalog): Promise<void> {
  for (const plugin of catalog.plugins) {
    await owner<InstallationRow>('plugin_installations')
      .where({ plugin_id: plugin.id })
      .whereNull('approved_permissions')
      .update({ approved_permissions: [...plugin.manifest.permissions] });
  }
}

const args = z.object({ pluginId: z.string().min(1).max(50) });

/** Workspace admins approve what the installed plugin's version asks for beyond what was approved. */
export async function approvePluginPermissions(
  catalog: PluginCatalog,
  ctx: RequestContext,
  input: unknown,
): Promise<InstallationRow> {
  const { pluginId } = validate(args, input);
  const { viewer, workspace } = ctx.authorize('workspace:admin');
  const plugin = catalog.get(pluginId);
  if (!plugin) throw notFound('That plugin');
  return ctx.tx(async (trx) => {
    const stored = await findInstallation(trx, pluginId);
    if (!stored) throw notFound(`${plugin.manifest.name}’s installation`);
    const added = pendingPermissions(plugin, stored);
    if (added.length === 0)
      throw new AppError('INVALID_OPERATION', `${plugin.manifest.name} has no new permissions to approve.`, {
        field: 'pluginId',
      });
    const [row] = await installations(trx)
      .where({ id: stored.id })
      .update({ approved_permissions: [...plugin.manifest.permissions], updated_at: new Date() })
      .returning('*');
    await recordAudit(trx, {
      workspaceId: workspace.id,
      actorUserId: viewer.userId,
      kind: 'INTEGRATION_CHANGE',
      subjectType: 'plugin',
      subjectId: pluginId,
      metadata: { action: 'permissions approved', permissions: added },
    });
    return row!;
  });
}
