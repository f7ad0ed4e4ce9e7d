import type Router from '@koa/router';
import { DIGEST_KIND, kindOf, notificationPreferences, type ModuleContext } from '@fieldbook/core';
import { readUnsubscribeToken } from './unsubscribe.ts';

/**
 * POST /email/unsubscribe?token=…: the one-click unsubscribe of RFC 8058 (mail clients post
 * `List-Unsubscribe=One-Click` here) and of the web page the email links to. No sign-in: the
 * signed token says who and what. Answers what was turned off, as JSON.
 */
export function unsubscribeRoutes(router: Router, ctx: ModuleContext): void {
  router.post('/email/unsubscribe', async (koa) => {
    const token = typeof koa.query.token === 'string' ? koa.query.token : '';
    const read = readUnsubscribeToken(ctx.config.secretKey, token);
    if (!read || (read.kind !== DIGEST_KIND && !kindOf(read.kind))) {
      koa.status = 400;
      koa.body = {
        error: 'This unsubscribe link is not valid. Open your notification settings to choose which emails you get.',
      };
      return;
    }
    await notificationPreferences.set(ctx.db.app, read.userId, read.kind, { email: false });
    koa.body = {
      kind: read.kind,
      label: read.kind === DIGEST_KIND ? 'Email digests of what you follow' : kindOf(read.kind)!.label,
    };
  });
}
