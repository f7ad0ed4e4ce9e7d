import type { Knex } from 'knex';
import { checkNotHolding, heldConnection, holding } from './held-connections.ts';
import { workspaceTurn } from './pool-share.ts';

/** Who a transaction acts for. Row-level security policies read these settings. */
export interface TenantScope {
  workspaceId?: string | null;
  userId?: string | null;
  /** The signed-in user's email, lower-cased: lets them see invites addressed to them. */
  email?: string | null;
}

/**
 * Runs `fn` in a transaction whose row-level security scope is `scope`. The settings are local
 * to the transaction, so a pooled connection never carries one workspace into the next request.
 * A workspace's transactions take their turn at the pool (pool-share.ts), so one workspace cannot
 * hold every connection. `fn` must not ask the pool for another connection while it holds this
 * one (the search engine, AI calls, another `withTenant`): read what it needs, return, and call
 * those after; `DATABASE_NESTED_ACQUIRE_CHECK` reports it in development and tests.
 */
export async function withTenant<T>(
  db: Knex,
  scope: TenantScope,
  fn: (trx: Knex.Transaction) => Promise<T>,
  /** More settings for this transaction (planner settings, say), set in the same round trip. */
  settings: Readonly<Record<string, string>> = {},
): Promise<T> {
  const extra = Object.entries(settings);
  checkNotHolding(db);
  const connection = heldConnection(db, scope.workspaceId ?? null);
  const release = await workspaceTurn(db, scope.workspaceId);
  try {
    return await db.transaction((trx) =>
      holding(connection, async () => {
        await trx.raw(
          `select set_config('app.workspace_id', ?, true), set_config('app.user_id', ?, true), set_config('app.email', ?, true)${extra.map(() => ', set_config(?, ?, true)').join('')}`,
          [scope.workspaceId ?? '', scope.userId ?? '', scope.email?.toLowerCase() ?? '', ...extra.flat()],
        );
        try {
          return await fn(trx);
        } finally {
          // Work `fn` left to run once the transaction ends (a notification after commit) holds nothing.
          if (connection) connection.released = true;
        }
      }),
    );
  } finally {
    release();
  }
}
