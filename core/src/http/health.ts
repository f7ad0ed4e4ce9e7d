import type Router from '@koa/router';
import type Koa from 'koa';
import type { Knex } from 'knex';
import type { DatabaseAvailability } from '../db/availability.ts';
import type { Liveness } from '../db/embedded-restart.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';

/** Seconds a client is asked to wait while the database is away. */
export const RETRY_AFTER_SECONDS = 5;
export const RECONNECTING_MESSAGE = 'Fieldbook is reconnecting to its database; try again in a few seconds.';
/** A readiness probe that takes longer than this counts the part it waited for as down. */
const PROBE_TIMEOUT_MS = 2000;

export interface Health {
  availability: DatabaseAvailability;
  /** The application pool (requests) and the owner pool (the job queue). */
  app: Knex;
  owner: Knex;
  jobSchema: string;
  /** False once the job system stopped. */
  jobsRunning(): boolean;
  /** Not ok once the process cannot recover by itself (its embedded PostgreSQL died for good). */
  liveness?: () => Liveness;
}

type Part = 'ok' | 'unavailable';

async function probe(run: () => Promise<unknown>): Promise<Part> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Part>((resolve) => (timer = setTimeout(() => resolve('unavailable'), PROBE_TIMEOUT_MS)));
  try {
    return await Promise.race([
      run().then(
        (): Part => 'ok',
        (): Part => 'unavailable',
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Answers 503 with Retry-After and a message that says what is going on. */
export function answerReconnecting(ctx: Koa.Context): void {
  ctx.status = 503;
  ctx.set('retry-after', String(RETRY_AFTER_SECONDS));
  ctx.body = {
    errors: [
      {
        message: RECONNECTING_MESSAGE,
        extensions: { errorCode: 'SERVICE_UNAVAILABLE', humanReadable: true, retryAfter: RETRY_AFTER_SECONDS },
      },
    ],
  };
}

/**
 * `/ping` says the process is alive (load balancers restart it when not): it is, unless its
 * embedded PostgreSQL died and could not be started again, which only a restart mends; `/ready` says whether
 * it can serve: the database answers to the application role and the job queue's schema is
 * reachable to the owner. A rolling deploy sends traffic only where `/ready` is 200.
 */
export function mountHealthRoutes(router: Router, health: Health, release: string): void {
  router.get('/ping', (ctx) => {
    const alive = health.liveness?.() ?? { ok: true };
    if (alive.ok) {
      ctx.body = { ok: true, release };
      return;
    }
    ctx.status = 503;
    ctx.body = { ok: false, release, database: 'stopped', message: alive.message };
  });
  router.get('/ready', async (ctx) => {
    const [database, queue] = await Promise.all([
      // Ready means requests pass the gate too, so the sentinel must be back as well.
      health.availability.isUp() ? probe(() => health.app.raw('select 1')) : Promise.resolve<Part>('unavailable'),
      health.jobsRunning()
        ? probe(() => health.owner.raw(`select 1 from ${health.jobSchema}.version limit 1`))
        : Promise.resolve<Part>('unavailable'),
    ]);
    const ready = database === 'ok' && queue === 'ok';
    if (!ready) ctx.set('retry-after', String(RETRY_AFTER_SECONDS));
    ctx.status = ready ? 200 : 503;
    ctx.body = { ok: ready, release, database, queue, ...(ready ? {} : { message: RECONNECTING_MESSAGE }) };
  });
}

const UNGATED = new Set(['/ping', '/ready']);

/**
 * While the database is away every request but the health routes gets 503 at once, without
 * trying the database and failing slowly; a request that meets the outage first reports it.
 */
export function databaseGate(availability: DatabaseAvailability): Koa.Middleware {
  return async (ctx, next) => {
    if (!availability.isUp() && !UNGATED.has(ctx.path)) return answerReconnecting(ctx);
    await next();
  };
}

/** For the error handler: true when it answered for an unreachable database. */
export function answeredUnavailable(
  ctx: Koa.Context,
  err: unknown,
  availability: DatabaseAvailability | undefined,
): boolean {
  if (!availability || !isDatabaseUnavailable(err)) return false;
  availability.reportUnavailable('http', err);
  answerReconnecting(ctx);
  return true;
}
