import type { Knex } from 'knex';
import { deriveKey } from '../config.ts';
import { defineModule, type ModuleContext } from '../kernel/module.ts';
import type { RequestAuthenticator } from '../kernel/ports.ts';
import type { RequestContext } from '../kernel/request-context.ts';
import { createPasswordUserRow, findOrCreateUserRow, findUserByEmail } from './accounts.ts';
import { createAuthenticator } from './authenticator.ts';
import { EmailChallenges } from './challenges.ts';
import type { IdentityDeps } from './deps.ts';
import { OidcFlow } from './oidc/flow.ts';
import { OidcClients } from './oidc/providers.ts';
import { PasswordHasher } from './passwords.ts';
import { checkPasswordOfViewer } from './password-check.ts';
import { mountOidcRoutes } from './oidc/routes.ts';
import { identityResolvers } from './resolvers.ts';
import { identityTypeDefs } from './schema.ts';
import { SessionStore, type AuthTokens } from './sessions.ts';
import { AttemptCounters } from './sign-in-limits/attempt-counters.ts';
import { PasswordAttempts } from './sign-in-limits/password-attempts.ts';
import { findUserRowById, toUserRecord, type UserRecord } from './users.ts';

export type { AuthTokens, UserRecord };

/** What other modules may use of identity. */
export interface IdentityServices {
  authenticator: RequestAuthenticator;
  /** Checks the password rule (002 §5) and creates the user; BAD_USER_INPUT names the field. */
  createPasswordUser(
    trx: Knex.Transaction,
    input: { email: string; password: string; name: string },
  ): Promise<UserRecord>;
  /** Finds or creates a passwordless user (one-time code, OIDC, invite acceptance). */
  findOrCreateUser(
    trx: Knex.Transaction,
    input: { email: string; name?: string; emailConfirmed: boolean },
  ): Promise<UserRecord>;
  findUserByEmail(trx: Knex.Transaction, email: string): Promise<UserRecord | null>;
  /** Opens a session: a short-lived access token and a refresh token. */
  issueSession(userId: string, userAgent?: string): Promise<AuthTokens>;
  /**
   * Re-checks the signed-in person's password before a sensitive change, with the limits and the
   * failure count of sign-in. Throws BAD_USER_INPUT naming `field` when it is not right (or the
   * person has none), TOO_MANY_REQUESTS when limited.
   */
  recheckPassword(ctx: RequestContext, password: string, field: string): Promise<void>;
}

/**
 * The parts are built once per context and shared by services, resolvers and routes. Core calls
 * `services`, `graphql` and `routes` with the same context object, hence the cache by context.
 */
const built = new WeakMap<object, { deps: IdentityDeps; flow: OidcFlow }>();
function partsOf(ctx: ModuleContext) {
  let parts = built.get(ctx);
  if (!parts) {
    const deps: IdentityDeps = {
      config: ctx.config,
      app: ctx.db.app,
      mailer: ctx.mailer,
      logger: ctx.logger,
      sessions: new SessionStore(ctx.db.app, ctx.config, ctx.invalidations),
      challenges: new EmailChallenges(ctx.db.app, deriveKey(ctx.config, 'one-time-code')),
      hasher: new PasswordHasher(ctx.config.signInLimits, ctx.config.trustProxy, ctx.config.passwordHashCost),
      attempts: new PasswordAttempts(new AttemptCounters(ctx.db.app), ctx.config),
    };
    parts = { deps, flow: new OidcFlow(new OidcClients(ctx.config), ctx.config, ctx.logger) };
    built.set(ctx, parts);
  }
  return parts;
}

/** Sign-up, sign-in, sessions, one-time codes, OIDC and API tokens. */
export const identityModule = defineModule({
  name: 'identity',
  services: (ctx): IdentityServices => {
    const { deps } = partsOf(ctx);
    return {
      authenticator: createAuthenticator(deps.app, deps.sessions),
      createPasswordUser: async (trx, input) => toUserRecord(await createPasswordUserRow(trx, deps.hasher, input)),
      findOrCreateUser: async (trx, input) => toUserRecord(await findOrCreateUserRow(trx, input)),
      findUserByEmail: (trx, email) => findUserByEmail(trx, email),
      issueSession: async (userId, userAgent) => {
        const user = await findUserRowById(deps.app, userId);
        if (!user) throw new Error(`issueSession: no user ${userId}`);
        return deps.sessions.open(user, userAgent);
      },
      recheckPassword: (ctx, password, field) => checkPasswordOfViewer(deps, ctx, password, field),
    };
  },
  graphql: (ctx) => {
    const { deps, flow } = partsOf(ctx);
    return { typeDefs: identityTypeDefs, resolvers: identityResolvers(deps, flow) };
  },
  routes: (router, ctx) => {
    const { deps, flow } = partsOf(ctx);
    mountOidcRoutes(router, deps, flow);
  },
});
