import type { Knex } from 'knex';
import { withTenant, type JobDefinition, type ModuleContext } from '@fieldbook/core';
import { FOLLOW_FREQUENCIES, type FollowFrequency } from '../follows/follows.ts';
import { lastEndedPeriod, periodEnd } from './periods.ts';
import { unsubscribeParts } from './unsubscribe.ts';

export const DIGEST_SWEEP_QUEUE = 'research.digest-sweep';
export const DIGEST_QUEUE = 'research.digest';
/** Every hour at :07, so a period that ended is emailed within the hour. */
export const DIGEST_CRON = '7 * * * *';

export interface DigestJob {
  userId: string;
  frequency: FollowFrequency;
  /** ISO start of the period the digest is for. */
  periodStart: string;
}

type Clock = () => Date;
const FREQUENCY_WORD: Record<FollowFrequency, string> = { DAILY: 'daily', WEEKLY: 'weekly', MONTHLY: 'monthly' };

/** The hourly sweep: one digest job per person and frequency with follow notifications waiting. */
export function digestSweepJob(
  ctx: ModuleContext,
  now: Clock = () => new Date(),
): JobDefinition<Record<string, never>> {
  return {
    queue: DIGEST_SWEEP_QUEUE,
    schedule: { cron: DIGEST_CRON, tz: 'UTC' },
    settings: { retryLimit: 3, retryDelaySeconds: 60 },
    async handler() {
      const at = now();
      const jobs: DigestJob[] = [];
      for (const frequency of FOLLOW_FREQUENCIES) {
        const { start } = lastEndedPeriod(frequency, at);
        const rows = (await ctx.db.app('notification_digest_pending').where({ frequency }).select('user_id')) as Array<{
          user_id: string;
        }>;
        for (const r of rows) jobs.push({ userId: r.user_id, frequency, periodStart: start.toISOString() });
      }
      if (jobs.length) await ctx.jobs.insert<DigestJob>(DIGEST_QUEUE, jobs);
    },
  };
}

interface Waiting {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  read_at: Date | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/** One line of a digest, with where it opens (000 §2 routes). */
export function digestLine(publicUrl: URL, n: Pick<Waiting, 'type' | 'payload'>): string {
  const p = n.payload;
  const actor = str(p.actorName) ?? 'Someone';
  const title = str(p.objectTitle) ?? 'an item';
  const id = str(p.objectId);
  const path = id
    ? p.objectType === 'NOTE'
      ? `/data/${id}`
      : `/insights/${id}`
    : str(p.projectId)
      ? `/projects/${str(p.projectId)}`
      : '/notifications';
  const tags = Array.isArray(p.tagTitles)
    ? p.tagTitles.filter((t): t is string => typeof t === 'string').join(', ')
    : '';
  const what =
    n.type === 'insight_published'
      ? `${actor} published the insight “${title}”${str(p.projectTitle) ? ` in ${str(p.projectTitle)}` : ''}`
      : n.type === 'followed_comment'
        ? `${actor} commented on “${title}”${str(p.excerpt) ? `: “${str(p.excerpt)}”` : ''}`
        : n.type === 'followed_tag_applied'
          ? `${actor} tagged ${p.target === 'HIGHLIGHT' ? 'a highlight in' : 'the note'} “${title}” with ${tags}`
          : p.change === 'ADDED'
            ? `${actor} added “${title}”${str(p.projectTitle) ? ` to ${str(p.projectTitle)}` : ''}`
            : `${actor} edited “${title}”`;
  return `- ${what}\n  ${new URL(path, publicUrl).toString()}`;
}

/**
 * Emails one person's digest of one frequency for one period, once: the digest's record, the
 * marking of its notifications and the send share one transaction. A worker killed before the
 * commit leaves nothing behind, and the retry sends it; a retry after the commit finds the
 * record and stops. Notifications read in-app meanwhile, or of kinds whose email is off, are
 * marked but not listed.
 */
export function digestJob(ctx: Pick<ModuleContext, 'db' | 'config' | 'mailer'>): JobDefinition<DigestJob> {
  return {
    queue: DIGEST_QUEUE,
    settings: { retryLimit: 5, retryDelaySeconds: 30 },
    async handler(job) {
      const { userId, frequency, periodStart } = job.data;
      const end = periodEnd(frequency, new Date(periodStart));
      await withTenant(ctx.db.app, { userId }, async (trx) => {
        const claimed = await trx('notification_digests')
          .insert({ user_id: userId, frequency, period_start: new Date(periodStart), notification_count: 0 })
          .onConflict(['user_id', 'frequency', 'period_start'])
          .ignore()
          .returning('user_id');
        if (!claimed.length) return;
        const waiting = (await trx('notifications')
          .where({ user_id: userId, digest: frequency })
          .whereNull('digested_at')
          .where('created_at', '<', end)
          .orderBy('created_at')
          .select('id', 'type', 'payload', 'read_at')) as Waiting[];
        if (waiting.length)
          await trx('notifications')
            .whereIn(
              'id',
              waiting.map((w) => w.id),
            )
            .update({ digested_at: trx.fn.now() });
        await forgetIfDone(trx, userId, frequency);
        const wanted = await wantedByEmail(trx, userId, waiting);
        if (!wanted.length) return;
        await trx('notification_digests')
          .where({ user_id: userId, frequency, period_start: new Date(periodStart) })
          .update({ notification_count: wanted.length });
        const user = (await trx('users').where({ id: userId }).first('email')) as { email: string } | undefined;
        if (!user) return;
        const unsubscribe = unsubscribeParts(ctx.config.publicUrl, ctx.config.secretKey, userId, 'digest');
        const word = FREQUENCY_WORD[frequency];
        await ctx.mailer.send({
          to: user.email,
          subject: `Your ${word} Fieldbook digest: ${wanted.length} ${wanted.length === 1 ? 'update' : 'updates'} on what you follow`,
          text: [
            `What happened on the projects, insights and tags you follow:`,
            '',
            ...wanted.map((w) => digestLine(ctx.config.publicUrl, w)),
            '',
            `Change what you follow and how often: ${new URL('/settings/user/notifications', ctx.config.publicUrl).toString()}`,
            `Stop these digests: ${unsubscribe.pageUrl}`,
          ].join('\n'),
          headers: unsubscribe.headers,
        });
      });
    },
  };
}

/** Unread notifications of kinds the person still wants by email, with digests on. */
async function wantedByEmail(trx: Knex.Transaction, userId: string, waiting: readonly Waiting[]): Promise<Waiting[]> {
  const prefs = (await trx('notification_preferences').where({ user_id: userId }).select('kind', 'email')) as Array<{
    kind: string;
    email: boolean;
  }>;
  const off = new Set(prefs.filter((p) => !p.email).map((p) => p.kind));
  if (off.has('digest')) return [];
  return waiting.filter((w) => !w.read_at && !off.has(w.type));
}

/** The sweep stops asking about a person once nothing of theirs waits for this frequency. */
async function forgetIfDone(trx: Knex.Transaction, userId: string, frequency: FollowFrequency): Promise<void> {
  const left = await trx('notifications')
    .where({ user_id: userId, digest: frequency })
    .whereNull('digested_at')
    .first('id');
  if (!left) await trx('notification_digest_pending').where({ user_id: userId, frequency }).delete();
}
