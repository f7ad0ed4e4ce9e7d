import { defineModule } from '../kernel/module.ts';
import type { RequestAuthenticator } from '../kernel/ports.ts';
import { identityTypeDefs } from './schema.ts';

export interface IdentityServices {
  authenticator: RequestAuthenticator;
}

/** Sign-up, sign-in, sessions, one-time codes, OIDC and API tokens. */
export const identityModule = defineModule({
  name: 'identity',
  services: (): IdentityServices => ({
    authenticator: {
      async authenticate() {
        throw new Error('identity: not implemented yet');
      },
    },
  }),
  graphql: () => ({ typeDefs: identityTypeDefs, resolvers: { Query: { release: () => 'dev' } } }),
});
