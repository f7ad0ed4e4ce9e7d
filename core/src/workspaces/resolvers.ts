import type { IResolvers } from '@graphql-tools/utils';
import { z } from 'zod';
import { validate } from '../errors/validate.ts';
import type { RequestContext } from '../kernel/request-context.ts';
import { listAuditLog } from './audit-log.ts';
import { availableSubdomain, createWorkspace } from './create-workspace.ts';
import type { WorkspacesDeps } from './deps.ts';
import { joinWorkspaceByDomain, setAllowedDomains } from './domains.ts';
import { acceptInvite, inviteByToken, inviteMembers, listInvites, revokeInvite } from './invites.ts';
import { listMembers, removeMember, updateMemberRole } from './members.ts';
import { REGION_CODES, REGIONS } from './regions.ts';
import {
  createUserGroup,
  deleteUserGroup,
  listUserGroups,
  renameUserGroup,
  setUserGroupMembers,
} from './user-groups.ts';
import { currentWorkspace, myMembership, updateWorkspace } from './workspace-settings.ts';

type Args = Record<string, unknown>;
type Resolver<T> = (parent: unknown, args: Args, ctx: RequestContext) => Promise<T>;

const suggestSchema = z.object({ name: z.string().max(200, 'A workspace name can be at most 200 characters long.') });

/** Resolvers of the workspaces contract (schema.ts); each authorizes, then validates, then acts. */
export function workspacesResolvers(deps: WorkspacesDeps): IResolvers<unknown, RequestContext> {
  const Query: Record<string, Resolver<unknown>> = {
    currentWorkspace: async (_p, _a, ctx) => currentWorkspace(deps, ctx),
    myMembership: async (_p, _a, ctx) => myMembership(deps, ctx),
    members: async (_p, args, ctx) => listMembers(ctx, args),
    userGroups: async (_p, _a, ctx) => listUserGroups(ctx),
    invites: async (_p, _a, ctx) => listInvites(ctx),
    inviteByToken: async (_p, args) => inviteByToken(deps, args),
    auditLog: async (_p, args, ctx) => listAuditLog(ctx, args),
    suggestSubdomain: async (_p, args) => availableSubdomain(deps.app, validate(suggestSchema, args).name),
    regions: async () => REGION_CODES,
    regionOptions: async () => REGIONS.map((r) => ({ ...r })),
  };

  const Mutation: Record<string, Resolver<unknown>> = {
    createWorkspace: async (_p, args, ctx) => createWorkspace(deps, ctx, args.input),
    updateWorkspace: async (_p, args, ctx) => updateWorkspace(deps, ctx, args),
    setAllowedDomains: async (_p, args, ctx) => setAllowedDomains(deps, ctx, args),
    joinWorkspaceByDomain: async (_p, args, ctx) => joinWorkspaceByDomain(deps, ctx, args),
    inviteMembers: async (_p, args, ctx) => inviteMembers(deps, ctx, args),
    revokeInvite: async (_p, args, ctx) => revokeInvite(ctx, args),
    acceptInvite: async (_p, args, ctx) => acceptInvite(deps, ctx, args),
    updateMemberRole: async (_p, args, ctx) => updateMemberRole(deps, ctx, args),
    removeMember: async (_p, args, ctx) => removeMember(deps, ctx, args),
    createUserGroup: async (_p, args, ctx) => createUserGroup(ctx, args),
    renameUserGroup: async (_p, args, ctx) => renameUserGroup(ctx, args),
    deleteUserGroup: async (_p, args, ctx) => deleteUserGroup(deps, ctx, args),
    setUserGroupMembers: async (_p, args, ctx) => setUserGroupMembers(deps, ctx, args),
  };

  return { Query, Mutation };
}
