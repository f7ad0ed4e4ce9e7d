import type { Knex } from 'knex';
import { withTenant } from '../db/tenancy.ts';
import { badInput } from '../errors/app-error.ts';
import { DIGEST_KIND, kindOf, notificationKinds } from './kinds.ts';

/** Notification types core raises itself (002 §3 lists about 60 kinds across the product). */
export const NOTIFICATION_TYPES = { accountLocked: 'account_locked' } as const;

export interface NotificationRecord {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  read: boolean;
  createdAt: Date;
  workspaceId: string | null;
}

interface NotificationRow {
  id: string;
  workspace_id: string | null;
  type: string;
  payload: Record<string, unknown>;
  read_at: Date | null;
  created_at: Date;
}

const toRecord = (r: NotificationRow): NotificationRecord => ({
  id: r.id,
  type: r.type,
  payload: r.payload,
  read: r.read_at !== null,
  createdAt: r.created_at,
  workspaceId: r.workspace_id,
});

/**
 * In-app notifications of one person. Row-level security lets a transaction see only the rows of
 * its own user, so every call runs scoped to the person it is about.
 */
export const notifications = {
  /**
   * Stores a notification for a person; workspace-less ones (account locked) pass no workspace.
   * Answers null when the person wants this kind neither in-app nor by email (the table's trigger
   * drops it); one wanted by email only is stored hidden from the app (`in_app` false).
   */
  async notify(
    app: Knex,
    input: { userId: string; workspaceId?: string | null; type: string; payload?: Record<string, unknown> },
  ): Promise<string | null> {
    return withTenant(app, { userId: input.userId, workspaceId: input.workspaceId ?? null }, async (trx) => {
      const [row] = await trx('notifications')
        .insert({
          user_id: input.userId,
          workspace_id: input.workspaceId ?? null,
          type: input.type,
          payload: JSON.stringify(input.payload ?? {}),
        })
        .returning<Array<{ id: string }>>('id');
      return row?.id ?? null;
    });
  },

  /** Newest first; `unreadOnly` leaves out those already read. */
  async list(app: Knex, userId: string, first: number, unreadOnly = false): Promise<NotificationRecord[]> {
    return withTenant(app, { userId }, async (trx) => {
      const rows = await trx('notifications')
        .where({ user_id: userId, in_app: true })
        .modify((q) => {
          if (unreadOnly) q.whereNull('read_at');
        })
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(first)
        .select<NotificationRow[]>('id', 'workspace_id', 'type', 'payload', 'read_at', 'created_at');
      return rows.map(toRecord);
    });
  },

  /** How many of the person's notifications are unread, counted up to 1,000 (the bell shows 9+). */
  async unreadCount(app: Knex, userId: string): Promise<number> {
    return withTenant(app, { userId }, async (trx) => {
      const row = (await trx
        .from(
          trx('notifications')
            .where({ user_id: userId, in_app: true })
            .whereNull('read_at')
            .limit(1000)
            .select(trx.raw('1'))
            .as('u'),
        )
        .count<{ n: string }>({ n: '*' })
        .first()) as { n: string } | undefined;
      return Number(row?.n ?? 0);
    });
  },

  /** Marks every unread notification of the person read; returns how many changed. */
  async markAllRead(app: Knex, userId: string): Promise<number> {
    return withTenant(app, { userId }, (trx) =>
      trx('notifications')
        .where({ user_id: userId, in_app: true })
        .whereNull('read_at')
        .update({ read_at: trx.fn.now() }),
    );
  },

  /** Marks the given notifications read; returns how many changed. Others' ids change nothing. */
  async markRead(app: Knex, userId: string, ids: readonly string[]): Promise<number> {
    if (!ids.length) return 0;
    return withTenant(app, { userId }, (trx) =>
      trx('notifications')
        .where({ user_id: userId, in_app: true })
        .whereIn('id', ids)
        .whereNull('read_at')
        .update({ read_at: trx.fn.now() }),
    );
  },
};

export interface NotificationPreference {
  kind: string;
  label: string;
  group: string;
  /** How email reaches the person for this kind: IMMEDIATE, DIGEST or NONE (never emailed). */
  emailDelivery: 'IMMEDIATE' | 'DIGEST' | 'NONE';
  required: boolean;
  inApp: boolean;
  email: boolean;
}

/** Per-kind choices of one person; kinds without a row are on. */
export const notificationPreferences = {
  async list(app: Knex, userId: string): Promise<NotificationPreference[]> {
    return withTenant(app, { userId }, async (trx) => {
      const rows = (await trx('notification_preferences')
        .where({ user_id: userId })
        .select('kind', 'in_app', 'email')) as Array<{ kind: string; in_app: boolean; email: boolean }>;
      const byKind = new Map(rows.map((r) => [r.kind, r]));
      const digest = byKind.get(DIGEST_KIND);
      return [
        ...notificationKinds().map((k) => ({
          kind: k.kind,
          label: k.label,
          group: k.group,
          emailDelivery: k.email.toUpperCase() as NotificationPreference['emailDelivery'],
          required: Boolean(k.required),
          inApp: k.required ? true : (byKind.get(k.kind)?.in_app ?? true),
          email: k.email === 'none' ? false : (byKind.get(k.kind)?.email ?? true),
        })),
        {
          kind: DIGEST_KIND,
          label: 'Email digests of what you follow',
          group: 'Following',
          emailDelivery: 'DIGEST' as const,
          required: false,
          inApp: false,
          email: digest?.email ?? true,
        },
      ];
    });
  },

  /** Sets one kind's choices; answers the kind's new state. */
  async set(
    app: Knex,
    userId: string,
    kind: string,
    change: { inApp?: boolean | null; email?: boolean | null },
  ): Promise<void> {
    const known = kindOf(kind);
    if (!known && kind !== DIGEST_KIND)
      throw badInput(
        'kind',
        `kind must be one of ${[...notificationKinds().map((k) => k.kind), DIGEST_KIND].join(', ')}.`,
      );
    if (known?.required && change.inApp === false) throw badInput('inApp', `“${known.label}” always shows in-app.`);
    await withTenant(app, { userId }, async (trx) => {
      const current = (await trx('notification_preferences')
        .where({ user_id: userId, kind })
        .first('in_app', 'email')) as { in_app: boolean; email: boolean } | undefined;
      const row = {
        user_id: userId,
        kind,
        in_app: change.inApp ?? current?.in_app ?? true,
        email: change.email ?? current?.email ?? true,
        updated_at: trx.fn.now(),
      };
      await trx('notification_preferences').insert(row).onConflict(['user_id', 'kind']).merge();
    });
  },
};
