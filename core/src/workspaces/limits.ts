/** Counts and lengths of 000 §9 and 002 §5 that the workspace operations enforce. */
export const WORKSPACE_LIMITS = {
  /** Users per workspace (000 §9). */
  usersPerWorkspace: 5000,
  /** User groups per workspace, and members per group (000 §9). */
  userGroups: 50,
  userGroupMembers: 200,
  /** Team name and invite message lengths (000 §9). */
  teamName: 200,
  inviteMessage: 500,
  userGroupName: 100,
  /** Addresses in one invite request, so one request cannot flood the mail server. */
  invitesPerRequest: 100,
  /** Organisation domains: five metadata fields of 250 characters (002 §5, §9). */
  domainFields: 5,
  domainFieldLength: 250,
  /** Days an invite link stays valid. */
  inviteValidDays: 7,
  /** Page sizes of the lists. */
  pageSize: 200,
} as const;
