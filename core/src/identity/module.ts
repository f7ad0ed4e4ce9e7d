import type { Knex } from 'knex';
import { defineModule } from '../kernel/module.ts';
import type { RequestAuthenticator } from '../kernel/ports.ts';
import { identityTypeDefs } from './schema.ts';

export interface UserRecord {
  id: string;
  email: string;
  name: string;
  emailConfirmed: boolean;
}

export interface AuthTokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: Date;
}

/** What other modules may use of identity. */
export interface IdentityServices {
  authenticator: RequestAuthenticator;
  /** Checks the password rule (002 §5) and creates the user; BAD_USER_INPUT names the field. */
  createPasswordUser(trx: Knex.Transaction, input: { email: string; password: string; name: string }): Promise<UserRecord>;
  /** Finds or creates a passwordless user (one-time code, OIDC, invite acceptance). */
  findOrCreateUser(trx: Knex.Transaction, input: { email: string; name?: string; emailConfirmed: boolean }): Promise<UserRecord>;
  findUserByEmail(trx: Knex.Transaction, email: string): Promise<UserRecord | null>;
  /** Opens a session: a short-lived access token and a refresh token. */
  issueSession(userId: string, userAgent?: string): Promise<AuthTokens>;
}

/** Sign-up, sign-in, sessions, one-time codes, OIDC and API tokens. */
export const identityModule = defineModule({
  name: 'identity',
  services: (): IdentityServices => {
    const todo = (): never => {
      throw new Error('identity: not implemented yet');
    };
    return {
      authenticator: { authenticate: async () => todo() },
      createPasswordUser: async () => todo(),
      findOrCreateUser: async () => todo(),
      findUserByEmail: async () => todo(),
      issueSession: async () => todo(),
    };
  },
  graphql: () => ({ typeDefs: identityTypeDefs, resolvers: { Query: { release: () => 'dev' } } }),
});
