import type { IResolvers } from '@graphql-tools/utils';
import type { GraphQLResolveInfo } from 'graphql';
import { z } from 'zod';
import { unauthenticated } from '../errors/app-error.ts';
import { validate } from '../errors/validate.ts';
import { selectsOnly } from '../graphql/selection.ts';
import { httpOf, type RequestContext } from '../kernel/request-context.ts';
import { notificationPreferences, notifications } from '../notifications/notifications.ts';
import { createApiToken, listApiTokens, MAX_API_TOKENS, revokeApiToken } from './api-tokens.ts';
import { availableTeamsFor } from './available-teams.ts';
import type { IdentityDeps } from './deps.ts';
import { confirmEmail, magicLogin, requestMagicLink, sendConfirmationEmail } from './email-sign-in.ts';
import { personNameSchema, uuidSchema } from './inputs.ts';
import type { OidcFlow } from './oidc/flow.ts';
import { userForProviderIdentity } from './oidc/link.ts';
import { signIn, signUp } from './password-sign-in.ts';
import { payloadFor, toUserView, type UserView } from './payload.ts';
import { themeModeSchema } from './theme.ts';
import { changePassword, requestPasswordReset, requestUnlock, resetPassword, unlockAccount } from './recovery.ts';
import { clearRefreshCookie, readRefreshCookie } from './sessions.ts';
import { teamEnvironment } from './team-environment.ts';
import { findUserRowById } from './users.ts';

type Args = Record<string, unknown>;
type Resolver<T> = (parent: unknown, args: Args, ctx: RequestContext, info: GraphQLResolveInfo) => Promise<T>;

/** What every signed-in request already knows of its person (the session check loads it). */
const VIEWER_FIELDS: ReadonlySet<string> = new Set(['id', 'email', 'name']);

/** Resolvers of the identity contract (schema.ts); each validates its input before changing anything. */
export function identityResolvers(deps: IdentityDeps, flow: OidcFlow): IResolvers<unknown, RequestContext> {
  const oidcConfirm = async (ctx: RequestContext, provider: string, code: string) =>
    userForProviderIdentity(deps.app, await flow.finishFromCode(httpOf(ctx), provider, code));

  const Query: Record<string, Resolver<unknown>> = {
    me: async (_p, _a, ctx, info) => {
      if (!ctx.viewer) return null;
      const { userId, email, name } = ctx.viewer;
      if (selectsOnly(info, VIEWER_FIELDS)) return { id: userId, email, name };
      const row = await findUserRowById(deps.app, ctx.viewer.userId);
      return row ? toUserView(row) : null;
    },
    teamEnvironment: async (_p, _a, ctx) => teamEnvironment(deps.app, deps.config, ctx.workspace),
    availableTeams: async (_p, _a, ctx) => {
      const viewer = ctx.requireViewer();
      return availableTeamsFor(deps.app, viewer);
    },
    notifications: async (_p, args, ctx) => {
      const viewer = ctx.requireViewer();
      const { first, unreadOnly } = validate(
        z.object({
          first: z
            .number()
            .int()
            .min(1, 'Ask for at least 1 notification.')
            .max(200, 'Ask for at most 200 notifications.'),
          unreadOnly: z.boolean().nullish(),
        }),
        args,
      );
      return notifications.list(deps.app, viewer.userId, first, unreadOnly ?? false);
    },
    unreadNotificationCount: async (_p, _a, ctx) => notifications.unreadCount(deps.app, ctx.requireViewer().userId),
    notificationPreferences: async (_p, _a, ctx) => notificationPreferences.list(deps.app, ctx.requireViewer().userId),
    apiTokens: async (_p, _a, ctx) => listApiTokens(ctx),
    apiTokenLimit: async () => MAX_API_TOKENS,
    release: async () => deps.config.release,
  };

  const Mutation: Record<string, Resolver<unknown>> = {
    sendConfirmationEmail: async (_p, args, ctx) => sendConfirmationEmail(deps, ctx, args.input),
    confirmEmail: async (_p, args, ctx) => confirmEmail(deps, ctx, args.input, oidcConfirm),
    signUp: async (_p, args, ctx) => signUp(deps, ctx, args.input),
    signIn: async (_p, args, ctx) => signIn(deps, ctx, args),
    refreshSession: async (_p, args, ctx) => {
      const { refreshToken } = validate(z.object({ refreshToken: z.string().max(200).nullish() }), args);
      const token = refreshToken || readRefreshCookie(httpOf(ctx));
      if (!token) throw unauthenticated();
      const { userId, tokens } = await deps.sessions.rotate(token);
      const user = await findUserRowById(deps.app, userId);
      if (!user) throw unauthenticated();
      return payloadFor(deps, ctx, user, tokens);
    },
    signOut: async (_p, _a, ctx) => {
      if (ctx.viewer?.sessionId) await deps.sessions.revoke(ctx.viewer.sessionId);
      const cookie = readRefreshCookie(httpOf(ctx));
      if (cookie) await deps.sessions.revokeByRefreshToken(cookie);
      clearRefreshCookie(httpOf(ctx));
      return true;
    },
    requestPasswordReset: async (_p, args) => requestPasswordReset(deps, args),
    resetPassword: async (_p, args, ctx) => resetPassword(deps, ctx, args),
    requestMagicLink: async (_p, args) => requestMagicLink(deps, args),
    magicLogin: async (_p, args, ctx) => magicLogin(deps, ctx, args),
    requestUnlock: async (_p, args) => requestUnlock(deps, args),
    unlockAccount: async (_p, args) => unlockAccount(deps, args),
    updateProfile: async (_p, args, ctx) => {
      const viewer = ctx.requireViewer();
      const { name } = validate(z.object({ name: personNameSchema }), args);
      const [row] = await deps
        .app('users')
        .where({ id: viewer.userId })
        .update({ name, updated_at: deps.app.fn.now() })
        .returning('*');
      if (!row) throw unauthenticated();
      await deps.sessions.personChanged(viewer.userId);
      return toUserView(row);
    },
    updateThemeMode: async (_p, args, ctx) => {
      const viewer = ctx.requireViewer();
      const { mode } = validate(z.object({ mode: themeModeSchema }), args);
      const [row] = await deps
        .app('users')
        .where({ id: viewer.userId })
        .update({
          preferences: deps.app.raw(`preferences || jsonb_build_object('themeMode', ?::text)`, [mode]),
          updated_at: deps.app.fn.now(),
        })
        .returning('*');
      if (!row) throw unauthenticated();
      return toUserView(row);
    },
    changePassword: async (_p, args, ctx) => changePassword(deps, ctx, args),
    markNotificationsRead: async (_p, args, ctx) => {
      const viewer = ctx.requireViewer();
      const { ids } = validate(
        z.object({ ids: z.array(uuidSchema).max(500, 'Mark at most 500 notifications at once.') }),
        args,
      );
      return notifications.markRead(deps.app, viewer.userId, ids);
    },
    markAllNotificationsRead: async (_p, _a, ctx) => notifications.markAllRead(deps.app, ctx.requireViewer().userId),
    updateNotificationPreference: async (_p, args, ctx) => {
      const viewer = ctx.requireViewer();
      const input = validate(
        z.object({
          kind: z.string().max(80, 'kind is at most 80 characters.'),
          inApp: z.boolean().nullish(),
          email: z.boolean().nullish(),
        }),
        args,
      );
      await notificationPreferences.set(deps.app, viewer.userId, input.kind, input);
      return notificationPreferences.list(deps.app, viewer.userId);
    },
    createApiToken: async (_p, args, ctx) => createApiToken(ctx, args),
    revokeApiToken: async (_p, args, ctx) => revokeApiToken(ctx, args),
  };

  // Another person's User (a member list) does not carry their theme: it reads as the default.
  const User = { themeMode: (u: UserView) => u.themeMode ?? 'BROWSER_DEFAULT' };

  return { Query, Mutation, User };
}
