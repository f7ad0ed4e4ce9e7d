import type { Knex } from 'knex';

/**
 * Idempotency keys of plugins' calls (a note per Slack message, per Zoom recording). A key is
 * claimed before the work and given its object after, so two deliveries of one thing running at
 * once make one object: the second waits for the first. The worker holding a claim refreshes it
 * every REFRESH_MS while it works; a claim not refreshed for STALE_SECONDS belongs to a worker
 * that died, and the next attempt takes it over (within about a minute of the crash, with the
 * job's own heartbeat, instead of minutes later).
 */
const STALE_SECONDS = 30;
const REFRESH_MS = 10_000;
const WAIT_MS = 15_000;

export type EffectClaim = { claimed: true } | { claimed: false; objectId: string };

type InWorkspace = <T>(fn: (trx: Knex.Transaction) => Promise<T>) => Promise<T>;

export async function claimEffect(
  inWorkspace: InWorkspace,
  workspaceId: string,
  pluginId: string,
  key: string,
): Promise<EffectClaim> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const outcome = await inWorkspace(async (trx) => {
      const inserted = await trx('plugin_effects')
        .insert({ workspace_id: workspaceId, plugin_id: pluginId, key, object_id: null })
        .onConflict(['workspace_id', 'plugin_id', 'key'])
        .ignore()
        .returning('key');
      if (inserted.length) return { claimed: true } as const;
      const taken = await trx('plugin_effects')
        .where({ plugin_id: pluginId, key })
        .whereNull('object_id')
        .where('created_at', '<', trx.raw(`now() - interval '${STALE_SECONDS} seconds'`))
        .update({ created_at: trx.fn.now() })
        .returning('key');
      if (taken.length) return { claimed: true } as const;
      const row = await trx('plugin_effects')
        .where({ plugin_id: pluginId, key })
        .first<{ object_id: string | null } | undefined>('object_id');
      return row?.object_id ? ({ claimed: false, objectId: row.object_id } as const) : null;
    });
    if (outcome) return outcome;
    if (Date.now() > deadline)
      throw new Error(`Another delivery is still making the object for ${key}; this one will be retried.`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Keeps a claim fresh while its work runs; call the returned function once the work is done. */
export function keepClaimed(inWorkspace: InWorkspace, pluginId: string, key: string): () => void {
  const timer = setInterval(() => {
    inWorkspace((trx) =>
      trx('plugin_effects')
        .where({ plugin_id: pluginId, key })
        .whereNull('object_id')
        .update({ created_at: trx.fn.now() }),
    ).catch(() => undefined); // a missed refresh only shortens the claim
  }, REFRESH_MS);
  timer.unref();
  return () => clearInterval(timer);
}

export function completeEffect(
  inWorkspace: InWorkspace,
  pluginId: string,
  key: string,
  objectId: string,
): Promise<unknown> {
  return inWorkspace((trx) =>
    trx('plugin_effects').where({ plugin_id: pluginId, key }).update({ object_id: objectId }),
  );
}

/** The work failed: the key is free for the next attempt. */
export function releaseEffect(inWorkspace: InWorkspace, pluginId: string, key: string): Promise<unknown> {
  return inWorkspace((trx) =>
    trx('plugin_effects').where({ plugin_id: pluginId, key }).whereNull('object_id').delete(),
  );
}
