import type { Knex } from 'knex';
import type { JobQueue } from '../../jobs/queue.ts';

export const WEBHOOK_QUEUE = 'extensions.webhook';

export interface WebhookJob {
  eventRowId: number;
  workspaceId: string;
  installationId: string;
  /** Routed by the provider account the installation is connected to (not by its own id). */
  byAccount: boolean;
}

/** A verified delivery as it is kept (`plugin_webhook_events`). */
export interface DeliveryRow {
  plugin_id: string;
  /** '' for an app-level path; the installation id for an installation's own URL. */
  scope: string;
  event_id: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  installation_id: string | null;
}

/** Where a delivery goes: null when no installation takes it (kept for a provider's retry, not queued). */
export type DeliveryRoute = Omit<WebhookJob, 'eventRowId'> | null;

interface Pending {
  row: DeliveryRow;
  route: DeliveryRoute;
  resolve(queued: boolean): void;
  reject(err: unknown): void;
}

/** Deliveries stored in one transaction at most: bounds the statement and a failed batch. */
const MAX_BATCH = 500;

export interface DeliveryStore {
  /**
   * Stores a delivery and queues its job, both or neither, and resolves once committed: true when
   * it was queued, false for a repeat of a stored event (or one no installation takes).
   */
  store(row: DeliveryRow, route: DeliveryRoute): Promise<boolean>;
}

/**
 * Group commit: deliveries that arrive while a transaction is committing wait for the next one
 * and go in together, one multi-row insert of events and one of jobs. Alone, a delivery is
 * written at once; under load, a commit serves many requests instead of each paying its own
 * round trips, which is what bounded intake before.
 */
export function createDeliveryStore(app: Knex, jobs: JobQueue): DeliveryStore {
  let waiting: Pending[] = [];
  let writing = false;

  const write = async (batch: Pending[]): Promise<void> => {
    const queued = await app.transaction(async (trx) => {
      const inserted = await trx('plugin_webhook_events')
        .insert(batch.map((p) => p.row))
        .onConflict(['plugin_id', 'scope', 'event_id'])
        .ignore()
        .returning<Array<{ id: number; plugin_id: string; scope: string; event_id: string }>>(['id', 'plugin_id', 'scope', 'event_id']);
      const ids = new Map(inserted.map((r) => [keyOf(r), r.id]));
      const toQueue: WebhookJob[] = [];
      // A repeat inside one batch is stored once and queued once: the first of them takes it.
      const outcome = batch.map((p) => {
        const key = keyOf(p.row);
        const id = ids.get(key);
        if (id === undefined || !p.route) return false;
        ids.delete(key);
        toQueue.push({ eventRowId: id, ...p.route });
        return true;
      });
      await jobs.insert(WEBHOOK_QUEUE, toQueue, { trx });
      return outcome;
    });
    batch.forEach((p, i) => p.resolve(queued[i]!));
  };

  const drain = async (): Promise<void> => {
    writing = true;
    try {
      while (waiting.length) {
        const batch = waiting.slice(0, MAX_BATCH);
        waiting = waiting.slice(batch.length);
        // One failed batch fails its own requests (the provider retries them); the next goes on.
        await write(batch).catch((err: unknown) => batch.forEach((p) => p.reject(err)));
      }
    } finally {
      writing = false;
    }
  };

  return {
    store(row, route) {
      return new Promise<boolean>((resolve, reject) => {
        waiting.push({ row, route, resolve, reject });
        if (!writing) void drain();
      });
    },
  };
}

function keyOf(r: Pick<DeliveryRow, 'plugin_id' | 'scope' | 'event_id'>): string {
  return `${r.plugin_id}\u0000${r.scope}\u0000${r.event_id}`;
}
