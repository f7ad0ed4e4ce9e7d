import Router from '@koa/router';
import Koa from 'koa';
import { AppError } from '../errors/app-error.ts';
import type { Foreground } from '../jobs/foreground.ts';
import type { Logger } from '../logger.ts';
import { answeredUnavailable, databaseGate, mountHealthRoutes, type Health } from './health.ts';

export interface HttpAppOptions {
  logger: Logger;
  release: string;
  /** Routes contributed by modules and plugins, mounted before the web app. */
  routes: Array<(router: Router) => void>;
  graphql: Koa.Middleware;
  webApp: Koa.Middleware | null;
  /** Liveness, readiness and the database gate. */
  health: Health;
  /** Told of every request, so the process's jobs make way for a burst of them. */
  foreground?: Foreground;
  /** Limits anonymous requests with public links' tokens (sharing/traffic.ts). */
  shareTraffic?: Koa.Middleware;
}

/** The Koa application: errors, the database gate, health, the API, module routes, then the web app. */
export function createHttpApp(opts: HttpAppOptions): Koa {
  const app = new Koa({ proxy: true });
  app.use(async (ctx, next) => {
    // The web app's files are cheap to serve and a page asks for dozens at once: not a burst to make way for.
    if (!ctx.path.startsWith('/static/')) opts.foreground?.arrived();
    try {
      await next();
    } catch (err) {
      if (err instanceof AppError) {
        ctx.status = err.status;
        ctx.body = {
          errors: [
            { message: err.message, extensions: { errorCode: err.errorCode, humanReadable: err.humanReadable } },
          ],
        };
        return;
      }
      if (answeredUnavailable(ctx, err, opts.health.availability)) return;
      opts.logger.error({ err, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = {
        errors: [
          {
            message: 'Something went wrong on our side. Please try again.',
            extensions: { errorCode: 'INTERNAL_SERVER_ERROR', humanReadable: true },
          },
        ],
      };
    }
  });
  app.use(async (ctx, next) => {
    ctx.set('x-content-type-options', 'nosniff');
    ctx.set('referrer-policy', 'strict-origin-when-cross-origin');
    ctx.set('x-fieldbook-release', opts.release);
    // Embed pages exist to be framed by other sites; every other page only by Fieldbook itself.
    if (ctx.path.startsWith('/embed/')) {
      ctx.set('content-security-policy', 'frame-ancestors *');
    } else {
      ctx.set('content-security-policy', "frame-ancestors 'self'");
      ctx.set('x-frame-options', 'SAMEORIGIN');
    }
    await next();
  });
  app.use(databaseGate(opts.health.availability));
  if (opts.shareTraffic) app.use(opts.shareTraffic);

  const router = new Router();
  mountHealthRoutes(router, opts.health, opts.release);
  router.all('/api/graphql', opts.graphql);
  for (const mount of opts.routes) mount(router);
  app.use(router.routes());
  app.use(router.allowedMethods());
  if (opts.webApp) app.use(opts.webApp);
  return app;
}
