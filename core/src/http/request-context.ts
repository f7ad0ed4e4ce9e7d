import type { Knex } from 'knex';
import type Koa from 'koa';
import { AppError, forbidden, notFound, unauthenticated } from '../errors/app-error.ts';
import { withTenant } from '../db/tenancy.ts';
import { can } from '../permissions/authorize.ts';
import type { Permission } from '../permissions/roles.ts';
import type { RequestAuthenticator, WorkspaceDirectory } from '../kernel/ports.ts';
import type { Membership, RequestContext, Viewer, WorkspaceRef } from '../kernel/request-context.ts';

export const WORKSPACE_HEADER = 'x-fieldbook-workspace';
export const RELEASE_HEADER = 'x-fieldbook-release';
export const SHARE_TOKEN_HEADER = 'x-share-token';
const SHARE_TOKEN = /^[A-Za-z0-9]{12}$/;

export interface ContextDeps {
  app: Knex;
  rootHost: string;
  authenticator: RequestAuthenticator;
  directory: WorkspaceDirectory;
}

/**
 * The workspace key of a request: the subdomain of the root host (`acme.fieldbook.example`), else
 * the workspace header, which API clients and localhost use. Null on the root-domain app.
 */
export function workspaceKeyOf(ctx: Koa.Context, rootHost: string): string | null {
  const host = (ctx.get('host') || '').toLowerCase();
  const root = rootHost.toLowerCase();
  if (host.endsWith(`.${root}`)) {
    const sub = host.slice(0, -(root.length + 1));
    if (sub && !sub.includes('.')) return sub;
  }
  const header = ctx.get(WORKSPACE_HEADER).trim().toLowerCase();
  return header || null;
}

function contextOf(
  deps: ContextDeps,
  parts: Pick<RequestContext, 'viewer' | 'workspace' | 'membership' | 'shareToken' | 'release' | 'koa'>,
): RequestContext {
  const { viewer, workspace, membership } = parts;
  const requireViewer = (): Viewer => {
    if (!viewer) throw unauthenticated();
    return viewer;
  };
  return {
    ...parts,
    requireViewer,
    authorize(permission: Permission) {
      const v = requireViewer();
      if (!workspace) throw new AppError('BAD_USER_INPUT', 'Choose a workspace first.', { field: 'workspace' });
      if (!membership || !can(membership, permission)) {
        throw forbidden();
      }
      return { viewer: v, workspace, membership };
    },
    tx: <T>(fn: (trx: Knex.Transaction) => Promise<T>) =>
      withTenant(deps.app, { workspaceId: workspace?.id, userId: viewer?.userId, email: viewer?.email }, fn),
  };
}

/**
 * The context of work done for a member outside any request (a plugin acting as the person who
 * installed it): the same authorization as their own requests. Null when they are no member.
 */
export async function buildMemberContext(
  deps: ContextDeps,
  workspaceId: string,
  userId: string,
): Promise<RequestContext | null> {
  const [workspace, membership, user] = await Promise.all([
    deps.directory.find(workspaceId),
    deps.directory.membership(workspaceId, userId),
    deps.app('users').where({ id: userId }).first<{ email: string; name: string | null } | undefined>('email', 'name'),
  ]);
  if (!workspace || !membership || !user) return null;
  const viewer: Viewer = { userId, email: user.email, name: user.name ?? '', sessionId: null, apiTokenId: null };
  return contextOf(deps, { viewer, workspace, membership, shareToken: null, release: null, koa: null });
}

/** Builds the context of one request: who calls, for which workspace, with which role. */
export async function buildRequestContext(ctx: Koa.Context, deps: ContextDeps): Promise<RequestContext> {
  const authorization = ctx.get('authorization');
  const shareToken = ctx.get(SHARE_TOKEN_HEADER) || null;
  if (authorization && shareToken) {
    throw new AppError('BAD_USER_INPUT', 'Send either a bearer token or a public share token, not both.');
  }
  if (shareToken && !SHARE_TOKEN.test(shareToken)) {
    throw new AppError('BAD_USER_INPUT', 'A share token is exactly 12 letters or digits.', { field: 'shareToken' });
  }

  let viewer: Viewer | null = null;
  let boundWorkspaceId: string | null = null;
  if (authorization) {
    const auth = await deps.authenticator.authenticate(authorization);
    viewer = auth.viewer;
    boundWorkspaceId = auth.boundWorkspaceId;
  }

  const key = workspaceKeyOf(ctx, deps.rootHost) ?? boundWorkspaceId;
  let workspace: WorkspaceRef | null = null;
  if (key) {
    workspace = await deps.directory.find(key);
    if (!workspace) throw notFound('That workspace');
  }
  if (boundWorkspaceId && workspace && workspace.id !== boundWorkspaceId) {
    throw forbidden('This API token belongs to another workspace.');
  }
  const membership: Membership | null =
    viewer && workspace ? await deps.directory.membership(workspace.id, viewer.userId) : null;

  return contextOf(deps, {
    viewer,
    workspace,
    membership,
    shareToken,
    release: ctx.get(RELEASE_HEADER) || null,
    koa: ctx,
  });
}
