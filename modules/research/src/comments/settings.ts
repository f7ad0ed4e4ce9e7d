import type { Knex } from 'knex';
import { z } from 'zod';
import { validate, type RequestContext } from '@fieldbook/core';

/**
 * A member's notification settings in one workspace (002 §3 user preferences and notification
 * options). A member without a row has the defaults.
 *
 * - allCommentsEnabled: notify me (in-app and by email) of comments on notes and insights I wrote,
 *   edited or commented on. Mentions are addressed to me and always arrive in-app.
 * - allChangesEnabled, insightsPublishedEnabled: the other notification options of 000 §3, kept
 *   here for the notifications that go by them.
 * - emailNotificationsDisabled: no email for any notification; in-app ones still arrive.
 */
export interface NotificationSettings {
  allCommentsEnabled: boolean;
  allChangesEnabled: boolean;
  insightsPublishedEnabled: boolean;
  emailNotificationsDisabled: boolean;
}

export const DEFAULT_SETTINGS: NotificationSettings = {
  allCommentsEnabled: true,
  allChangesEnabled: false,
  insightsPublishedEnabled: true,
  emailNotificationsDisabled: false,
};

const COLUMNS = {
  allCommentsEnabled: 'all_comments_enabled',
  allChangesEnabled: 'all_changes_enabled',
  insightsPublishedEnabled: 'insights_published_enabled',
  emailNotificationsDisabled: 'email_notifications_disabled',
} as const satisfies Record<keyof NotificationSettings, string>;

type SettingsRow = { user_id: string } & Record<(typeof COLUMNS)[keyof typeof COLUMNS], boolean>;

const fromRow = (row: SettingsRow | undefined): NotificationSettings =>
  row
    ? {
        allCommentsEnabled: row.all_comments_enabled,
        allChangesEnabled: row.all_changes_enabled,
        insightsPublishedEnabled: row.insights_published_enabled,
        emailNotificationsDisabled: row.email_notifications_disabled,
      }
    : { ...DEFAULT_SETTINGS };

/** The settings of several members of the workspace, defaults for those who never changed them. */
export async function settingsOf(
  trx: Knex.Transaction,
  workspaceId: string,
  userIds: readonly string[],
): Promise<Map<string, NotificationSettings>> {
  const rows = userIds.length
    ? ((await trx('notification_settings')
        .where({ workspace_id: workspaceId })
        .whereIn('user_id', userIds)) as SettingsRow[])
    : [];
  const byUser = new Map(rows.map((r) => [r.user_id, r]));
  return new Map(userIds.map((id) => [id, fromRow(byUser.get(id))]));
}

export async function getNotificationSettings(ctx: RequestContext): Promise<NotificationSettings> {
  const { viewer, workspace } = ctx.authorize('notifications:read');
  return ctx.tx(async (trx) => (await settingsOf(trx, workspace.id, [viewer.userId])).get(viewer.userId)!);
}

const updateSchema = z.object({
  input: z.object({
    allCommentsEnabled: z.boolean().nullish(),
    allChangesEnabled: z.boolean().nullish(),
    insightsPublishedEnabled: z.boolean().nullish(),
    emailNotificationsDisabled: z.boolean().nullish(),
  }),
});

/** Changes only the settings given; each member changes only their own. */
export async function updateNotificationSettings(ctx: RequestContext, args: unknown): Promise<NotificationSettings> {
  const { viewer, workspace } = ctx.authorize('notifications:update');
  const { input } = validate(updateSchema, args);
  return ctx.tx(async (trx) => {
    const current = (await settingsOf(trx, workspace.id, [viewer.userId])).get(viewer.userId)!;
    const next: NotificationSettings = { ...current };
    for (const key of Object.keys(COLUMNS) as Array<keyof NotificationSettings>) {
      const value = input[key];
      if (typeof value === 'boolean') next[key] = value;
    }
    const row = Object.fromEntries(
      Object.entries(COLUMNS).map(([key, column]) => [column, next[key as keyof NotificationSettings]]),
    );
    await trx('notification_settings')
      .insert({ workspace_id: workspace.id, user_id: viewer.userId, ...row, updated_at: trx.fn.now() })
      .onConflict(['workspace_id', 'user_id'])
      .merge();
    return next;
  });
}
