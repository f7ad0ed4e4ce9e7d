import type { Knex } from 'knex';
import type { PgBoss } from 'pg-boss';
import { fromKnex } from 'pg-boss';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { isTriggerEvent, parseEventPayload } from '../events/catalog.ts';
import { JOB_SCHEMA, type Job } from './queue.ts';

/** A domain event as delivered to a subscriber. */
export interface DomainEvent<T = Record<string, unknown>> {
  /** One id per publish, the same in every subscriber's copy: what handlers deduplicate on. */
  id: string;
  event: string;
  workspaceId: string | null;
  payload: T;
  occurredAt: string;
  /** Set when the change was made by an automation: which ones led to it, so none loops. */
  cause?: EventCause;
}

/** The automations whose actions, one inside the other, published an event. */
export interface EventCause {
  automationIds: string[];
}

const causes = new AsyncLocalStorage<EventCause>();

/** Runs `fn` so that every event it publishes carries `cause`. */
export function withEventCause<T>(cause: EventCause, fn: () => Promise<T>): Promise<T> {
  return causes.run(cause, fn);
}

export type EventHandler = (event: DomainEvent, job: Job<DomainEvent>) => Promise<void>;

export interface EventBus {
  /**
   * Publishes a domain event. Given the transaction that made the change, the event is stored
   * with it (a transactional outbox): it is delivered if and only if the change commits. An event
   * of the trigger catalog (core/src/events/catalog.ts) must match its payload schema. Answers the
   * event's id.
   */
  publish(
    event: string,
    workspaceId: string | null,
    payload: Record<string, unknown>,
    trx?: Knex.Transaction,
  ): Promise<string>;
  /**
   * Publishes many events in the transaction of their change, as `publish` would one by one, in
   * one read of the subscriptions and one insert per subscribing queue: for changes made in bulk
   * (a batch of webhook deliveries turned into notes). Optional: `publishAll` falls back to
   * `publish` for a bus without it.
   */
  publishMany?(events: ReadonlyArray<PublishedEvent>, trx: Knex.Transaction): Promise<string[]>;
}

export interface PublishedEvent {
  event: string;
  workspaceId: string | null;
  payload: Record<string, unknown>;
}

/** Publishes every one of `events` in `trx`, set-wise when the bus can. */
export async function publishAll(
  bus: EventBus,
  events: ReadonlyArray<PublishedEvent>,
  trx: Knex.Transaction,
): Promise<string[]> {
  if (bus.publishMany) return bus.publishMany(events, trx);
  const ids: string[] = [];
  for (const e of events) ids.push(await bus.publish(e.event, e.workspaceId, e.payload, trx));
  return ids;
}

/**
 * Runs `fn` over `items`, at most `limit` at a time (one after another by default), and answers
 * each one's outcome as a batch handler answers: null when it was done, or the error it threw
 * (which fails that job alone).
 */
export async function outcomesOf<T>(
  items: ReadonlyArray<T>,
  fn: (item: T) => Promise<unknown>,
  limit = 1,
): Promise<unknown[]> {
  const outcomes: unknown[] = new Array(items.length).fill(null);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      try {
        await fn(items[i]!);
      } catch (err) {
        outcomes[i] = err ?? new Error('failed');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return outcomes;
}

export function subscriberQueue(event: string, name: string): string {
  return `event.${event.replace(/[^\w.\-/]/g, '_')}.${name}`;
}

export function createEventBus(boss: PgBoss): EventBus {
  return {
    async publish(event, workspaceId, payload, trx) {
      const checked = isTriggerEvent(event) ? parseEventPayload(event, payload) : payload;
      const cause = causes.getStore();
      const message: DomainEvent = {
        id: randomUUID(),
        event,
        workspaceId,
        payload: checked,
        occurredAt: new Date().toISOString(),
        ...(cause ? { cause } : {}),
      };
      await boss.publish(event, message, trx ? { db: fromKnex(trx) } : undefined);
      return message.id;
    },
    async publishMany(events, trx) {
      if (!events.length) return [];
      const cause = causes.getStore();
      const occurredAt = new Date().toISOString();
      const messages: DomainEvent[] = events.map(({ event, workspaceId, payload }) => ({
        id: randomUUID(),
        event,
        workspaceId,
        payload: isTriggerEvent(event) ? parseEventPayload(event, payload) : payload,
        occurredAt,
        ...(cause ? { cause } : {}),
      }));
      // What boss.publish does for each event (its subscribers' queues, then a job in each), once for all.
      const names = [...new Set(messages.map((m) => m.event))];
      const { rows } = await trx.raw<{ rows: Array<{ name: string; event: string }> }>(
        `select name, event from ${JOB_SCHEMA}.subscription where event = any(?)`,
        [names],
      );
      const db = fromKnex(trx);
      for (const { name, event } of rows) {
        const jobs = messages.filter((m) => m.event === event).map((data) => ({ data: data as unknown as object }));
        await boss.insert(name, jobs, { db });
      }
      return messages.map((m) => m.id);
    },
  };
}
