import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { JobQueue } from '@fieldbook/core';
import { enqueueEmails } from '../comments/notify.ts';
import { insertNotifications } from '../follows/fanout.ts';
import { isImmediateEmailKind } from './texts.ts';

/** One notification to write for someone, named by its event (one per person and event). */
export interface NotificationToSend {
  userId: string;
  workspaceId: string;
  type: string;
  payload: Record<string, unknown>;
  dedupeKey: string;
}

/**
 * Writes notifications and, for kinds emailed at once, queues their emails in the same
 * transaction: they go out if and only if the change commits. The job checks each person's
 * choices when it sends, and finds nothing for a notification the person turned off entirely or
 * already had for this event (the rows are not read back: they belong to other people).
 */
export async function sendNotifications(
  trx: Knex.Transaction,
  jobs: JobQueue,
  items: readonly NotificationToSend[],
): Promise<void> {
  const rows = items.map((n) => ({
    id: randomUUID(),
    user_id: n.userId,
    workspace_id: n.workspaceId,
    type: n.type,
    payload: JSON.stringify(n.payload),
    dedupe_key: n.dedupeKey,
  }));
  await insertNotifications(trx, rows);
  await enqueueEmails(
    trx,
    jobs,
    rows
      .filter((r) => isImmediateEmailKind(r.type))
      .map((r) => ({ notificationId: r.id, userId: r.user_id, workspaceId: r.workspace_id })),
  );
}
