import type { Knex } from 'knex';
import { unauthenticated } from '../errors/app-error.ts';
import type { RequestAuthenticator } from '../kernel/ports.ts';
import { parseApiToken, viewerForApiToken } from './api-tokens.ts';
import type { SessionStore } from './sessions.ts';

/**
 * Resolves the Authorization header: `Bearer <access token>` for people signed in, or an API token
 * (`api.<workspaceId>.<secret>`, with or without `Bearer`), which binds the request to its workspace.
 */
export function createAuthenticator(app: Knex, sessions: SessionStore): RequestAuthenticator {
  return {
    async authenticate(authorization) {
      const match = /^\s*(?:bearer\s+)?(\S+)\s*$/i.exec(authorization);
      if (!match) throw unauthenticated('The Authorization header must be "Bearer <token>".');
      const token = match[1]!;

      const apiToken = parseApiToken(token);
      if (apiToken) {
        const viewer = await viewerForApiToken(app, apiToken);
        if (!viewer) throw unauthenticated('This API token is not valid or was revoked.');
        return { viewer, boundWorkspaceId: apiToken.workspaceId };
      }

      const claims = await sessions.verifyAccessToken(token);
      const person = await sessions.liveSession(claims);
      return {
        viewer: {
          userId: claims.userId,
          email: person.email,
          name: person.name,
          sessionId: claims.sessionId,
          apiTokenId: null,
        },
        boundWorkspaceId: null,
      };
    },
  };
}
