import type { Knex } from 'knex';
import type { PgBoss } from 'pg-boss';
import { fromKnex } from 'pg-boss';
import type { Job } from './queue.ts';

/** A domain event as delivered to a subscriber. */
export interface DomainEvent<T = Record<string, unknown>> {
  event: string;
  workspaceId: string | null;
  payload: T;
  occurredAt: string;
}

export type EventHandler = (event: DomainEvent, job: Job<DomainEvent>) => Promise<void>;

export interface EventBus {
  /**
   * Publishes a domain event. Given the transaction that made the change, the event is stored
   * with it (a transactional outbox): it is delivered if and only if the change commits.
   */
  publish(event: string, workspaceId: string | null, payload: Record<string, unknown>, trx?: Knex.Transaction): Promise<void>;
}

export function subscriberQueue(event: string, name: string): string {
  return `event.${event.replace(/[^\w.\-/]/g, '_')}.${name}`;
}

export function createEventBus(boss: PgBoss): EventBus {
  return {
    async publish(event, workspaceId, payload, trx) {
      const message: DomainEvent = { event, workspaceId, payload, occurredAt: new Date().toISOString() };
      await boss.publish(event, message, trx ? { db: fromKnex(trx) } : undefined);
    },
  };
}
