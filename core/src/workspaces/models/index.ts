export { AuditEntry } from './audit-entry.ts';
export { Invite } from './invite.ts';
export { UserGroup, UserGroupMember } from './user-group.ts';
export { Workspace } from './workspace.ts';
export { WorkspaceMember, type JoinedVia } from './workspace-member.ts';
