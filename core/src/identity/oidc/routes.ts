import type Router from '@koa/router';
import type Koa from 'koa';
import { AppError } from '../../errors/app-error.ts';
import type { IdentityDeps } from '../deps.ts';
import type { OidcFlow } from './flow.ts';
import { userForProviderIdentity } from './link.ts';
import { setRefreshCookie } from '../sessions.ts';

/** Where the web app lets a person pick a workspace once signed in. */
const AFTER_SIGN_IN = '/auth/workspaces';

/**
 * Browser routes of provider sign-in: start redirects to the provider; the callbacks (002 §2
 * identity-provider return points) open a session, set the refresh cookie and go on to the
 * workspace chooser, where the web app gets its access token by refreshing the session.
 */
export function mountOidcRoutes(router: Router, deps: IdentityDeps, flow: OidcFlow): void {
  router.get('/auth/oidc/:provider/start', async (ctx) => {
    try {
      ctx.redirect((await flow.start(ctx, ctx.params.provider ?? '')).toString());
    } catch (err) {
      backToSignIn(ctx, err);
    }
  });

  const callback = async (ctx: Koa.Context): Promise<void> => {
    try {
      const identity = await flow.finishFromCallback(ctx, new URL(ctx.href));
      const user = await userForProviderIdentity(deps.app, identity);
      const tokens = await deps.sessions.open(user, ctx.get('user-agent') || undefined);
      setRefreshCookie(ctx, tokens, deps.config.refreshTokenTtlSeconds);
      ctx.redirect(AFTER_SIGN_IN);
    } catch (err) {
      backToSignIn(ctx, err);
    }
  };
  router.get('/callback', callback);
  router.get('/users/oauth2/callback', callback);
}

/** A browser cannot show a JSON error: it goes back to the sign-in page, which shows the message. */
function backToSignIn(ctx: Koa.Context, err: unknown): void {
  if (!(err instanceof AppError)) throw err;
  ctx.redirect(`/auth/login?error=${encodeURIComponent(err.message)}`);
}
