import type { Membership, Viewer, WorkspaceRef } from './request-context.ts';

/** How core learns who is calling. The identity module provides it. */
export interface RequestAuthenticator {
  /**
   * Resolves an Authorization header (bearer access token or API token) to a viewer. Returns null
   * when there is no header; throws UNAUTHENTICATED when the token is expired, revoked or invalid.
   */
  authenticate(authorization: string): Promise<{ viewer: Viewer; boundWorkspaceId: string | null }>;
}

/** How core learns which workspace a request addresses. The workspaces module provides it. */
export interface WorkspaceDirectory {
  /** By subdomain or id; null when no such workspace exists. */
  find(key: string): Promise<WorkspaceRef | null>;
  membership(workspaceId: string, userId: string): Promise<Membership | null>;
}
