import type { Knex } from 'knex';
import type Koa from 'koa';
import type { Permission, ProductRole, Role } from '../permissions/roles.ts';

/** The person (or API token) behind a request. */
export interface Viewer {
  userId: string;
  email: string;
  name: string;
  /** Set for browser sessions; sign-out revokes it. */
  sessionId: string | null;
  /** Set when the request authenticated with an API token; such a token is bound to one workspace. */
  apiTokenId: string | null;
}

/** The workspace a request addresses, resolved from its subdomain or the workspace header. */
export interface WorkspaceRef {
  id: string;
  name: string;
  subdomain: string;
  region: string;
}

export interface Membership {
  role: ProductRole;
  workspaceAdmin: boolean;
  effectiveRole: Role;
  groupIds: readonly string[];
}

/** What every GraphQL resolver and route handler receives about the request it serves. */
export interface RequestContext {
  viewer: Viewer | null;
  workspace: WorkspaceRef | null;
  membership: Membership | null;
  /** The public share token sent instead of a bearer token, if any (000 §1). */
  shareToken: string | null;
  release: string | null;
  /** The HTTP exchange; null for work done on a member's behalf outside a request (plugins, jobs). */
  koa: Koa.Context | null;
  /** The one authorization check: throws UNAUTHENTICATED or FORBIDDEN unless allowed. */
  authorize(permission: Permission): { viewer: Viewer; workspace: WorkspaceRef; membership: Membership };
  /** Throws UNAUTHENTICATED unless a person is signed in. */
  requireViewer(): Viewer;
  /** A transaction scoped to this request's workspace and user under row-level security. */
  tx<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T>;
}

/** The HTTP exchange of a context that must come from a request (cookies, headers). */
export function httpOf(ctx: RequestContext): Koa.Context {
  if (!ctx.koa) throw new Error('This operation needs an HTTP request.');
  return ctx.koa;
}
