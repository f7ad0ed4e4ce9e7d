import type { Knex } from 'knex';
import type { NoteDraft, PluginNote } from '@fieldbook/extensions-sdk/server';
import type { RequestContext } from '../../kernel/request-context.ts';
import type { CreatedNote, NoteDraftRow, PluginDataPort } from '../runtime/data-port.ts';
import { noteTitle, textToDoc } from '../runtime/notes.ts';

/** A claim on a key not given its note for this long belongs to a worker that died (as in effects.ts). */
const STALE_CLAIM_SECONDS = 30;

/** The notes one stored delivery makes. */
export interface DeliveryNotes {
  deliveryId: number;
  notes: ReadonlyArray<NoteDraft & { key: string }>;
}

export interface DeliveryNotesResult {
  /** Deliveries whose notes committed, marked handled in the same transaction. */
  made: Map<number, Array<PluginNote & { created: boolean }>>;
  /** Deliveries left for their plugin's `handle`, one at a time: a key another worker is still making. */
  deferred: number[];
}

interface KeyRow {
  key: string;
  object_id: string | null;
  stale: boolean;
  note_id: string | null;
  project_id: string | null;
  title: string | null;
}

/**
 * Makes a batch of deliveries' notes in one transaction as the member the plugin acts for: the
 * plugin's idempotency keys claimed in one statement (a key that already made its note answers
 * that note, `created` false), the new notes created set-wise, the keys given their notes and the
 * deliveries marked handled, all committing together. So a delivery becomes its notes exactly
 * once: a retry after a crash finds it handled, or finds its keys taken. Throws when anything in
 * the batch fails (a project the member cannot write in, a draft refused), leaving nothing behind.
 */
export async function createDeliveryNotes(opts: {
  port: PluginDataPort;
  actor: RequestContext;
  pluginId: string;
  workspaceId: string;
  items: readonly DeliveryNotes[];
}): Promise<DeliveryNotesResult> {
  const { port, actor, pluginId, workspaceId, items } = opts;
  return port.withNotes(actor, async (trx, createNotes) => {
    const keys = [...new Set(items.flatMap((item) => item.notes.map((n) => n.key)))];
    const notes = new Map<string, PluginNote & { created: boolean }>();
    const busy = new Set<string>();
    const toMake = new Set<string>();
    if (keys.length) {
      const { rows: claimed } = await trx.raw<{ rows: Array<{ key: string }> }>(
        'insert into plugin_effects (workspace_id, plugin_id, key, object_id) select ?, ?, k, null from unnest(?::text[]) as k on conflict do nothing returning key',
        [workspaceId, pluginId, keys],
      );
      for (const { key } of claimed) toMake.add(key);
      const taken = keys.filter((k) => !toMake.has(k));
      if (taken.length) for (const row of await keysTaken(trx, pluginId, taken)) settle(row, notes, busy, toMake);
      const takeOver = taken.filter((k) => toMake.has(k));
      if (takeOver.length)
        await trx('plugin_effects')
          .where({ plugin_id: pluginId })
          .whereIn('key', takeOver)
          .update({ object_id: null, created_at: trx.fn.now() });
    }
    const deferred = items.filter((item) => item.notes.some((n) => busy.has(n.key))).map((item) => item.deliveryId);
    const doing = items.filter((item) => !deferred.includes(item.deliveryId));
    // One draft per key: the same message saved twice in a batch is one note.
    const drafts = new Map<string, NoteDraftRow>();
    for (const item of doing) {
      for (const n of item.notes) {
        if (toMake.has(n.key) && !drafts.has(n.key))
          drafts.set(n.key, {
            projectId: n.projectId,
            title: noteTitle(n.title),
            content: n.content ?? textToDoc(n.text ?? ''),
          });
      }
    }
    const made: CreatedNote[] = drafts.size ? await createNotes([...drafts.values()]) : [];
    const madeKeys = [...drafts.keys()];
    madeKeys.forEach((key, i) => notes.set(key, { ...made[i]!, path: `/data/${made[i]!.id}`, created: true }));
    if (madeKeys.length) {
      await trx.raw(
        'update plugin_effects e set object_id = v.id from unnest(?::text[], ?::text[]) as v(key, id) where e.plugin_id = ? and e.key = v.key',
        [madeKeys, made.map((n) => n.id), pluginId],
      );
    }
    const done = doing.map((item) => item.deliveryId);
    if (done.length) await trx.raw('select mark_webhook_deliveries_handled(?::bigint[])', [done]);
    const result = new Map<number, Array<PluginNote & { created: boolean }>>();
    // A key made for an earlier delivery of this batch is, for a later one, a note that exists.
    const announced = new Set<string>();
    for (const item of doing) {
      result.set(
        item.deliveryId,
        item.notes.map((n) => {
          const note = notes.get(n.key)!;
          const created = note.created && !announced.has(n.key);
          announced.add(n.key);
          return { ...note, created };
        }),
      );
    }
    return { made: result, deferred };
  });
}

/** Keys claimed before this batch, with the note each made if it still exists. */
async function keysTaken(trx: Knex.Transaction, pluginId: string, keys: readonly string[]): Promise<KeyRow[]> {
  const { rows } = await trx.raw<{ rows: KeyRow[] }>(
    `select e.key, e.object_id, e.created_at < now() - make_interval(secs => ?) as stale, n.id as note_id, n.project_id, n.title
       from plugin_effects e left join notes n on n.id::text = e.object_id and n.deleted_at is null
      where e.plugin_id = ? and e.key = any(?::text[])
      for update of e`,
    [STALE_CLAIM_SECONDS, pluginId, [...keys]],
  );
  return rows;
}

/** What to do with a key claimed before: answer its note, wait for its maker, or make it again. */
function settle(
  row: KeyRow,
  notes: Map<string, PluginNote & { created: boolean }>,
  busy: Set<string>,
  toMake: Set<string>,
): void {
  if (row.note_id)
    notes.set(row.key, {
      id: row.note_id,
      projectId: row.project_id!,
      title: row.title ?? '',
      path: `/data/${row.note_id}`,
      created: false,
    });
  // Claimed and still being made by a live worker: that delivery is handled alone, waiting its turn.
  else if (row.object_id === null && !row.stale) busy.add(row.key);
  // Its note was deleted since, or its maker died: the key is this batch's again.
  else toMake.add(row.key);
}
