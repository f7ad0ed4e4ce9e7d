/** The GraphQL documents the shell sends, with the shapes it reads back. */

export type ProductRole = 'VIEWER' | 'CONTRIBUTOR' | 'MANAGER';
export type Role = ProductRole | 'WORKSPACE_ADMIN';
export type Region = 'US_A' | 'US_B' | 'EU_A' | 'AU_A';

export interface User {
  id: string;
  email: string;
  name: string;
  emailConfirmed: boolean;
  hasPassword: boolean;
  /** The person's theme (absent in answers of older servers). */
  themeMode?: 'BROWSER_DEFAULT' | 'LIGHT' | 'DARK';
}

export interface AvailableTeam {
  id: string;
  subdomain: string;
  name: string;
  logoUrl: string | null;
  primaryColor: string | null;
  type: 'MEMBER' | 'INVITE' | 'DOMAIN';
  inviteId: string | null;
  invitedBy: string | null;
}

export interface AuthPayload {
  accessToken: string;
  expiresAt: string;
  user: User;
  availableTeams: AvailableTeam[];
  teamId: string | null;
}

export interface Workspace {
  id: string;
  name: string;
  subdomain: string;
  region: Region;
  logoUrl: string | null;
  primaryColor: string | null;
  allowedDomains: string[];
  publicLinksDisabled: boolean;
  memberCount: number;
  createdAt: string;
  url: string;
}

export interface Membership {
  role: ProductRole;
  workspaceAdmin: boolean;
  effectiveRole: Role;
  permissions: string[];
}

export interface Member {
  user: User;
  role: ProductRole;
  workspaceAdmin: boolean;
  effectiveRole: Role;
  joinedAt: string;
}

export interface Invite {
  id: string;
  email: string;
  role: ProductRole;
  workspaceAdmin: boolean;
  createdAt: string;
  expiresAt: string;
  acceptedAt: string | null;
  invitedBy: { name: string; email: string } | null;
}

export interface InvitePreview {
  workspaceName: string;
  workspaceSubdomain: string;
  email: string;
  invitedBy: string | null;
  role: ProductRole;
  expired: boolean;
}

export interface UserGroup {
  id: string;
  name: string;
  memberCount: number;
  members: Array<{ id: string; name: string; email: string }>;
}

export interface ApiToken {
  id: string;
  name: string;
  lastFour: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface AuditEntry {
  id: string;
  kind: string;
  actor: { id: string; name: string; email: string } | null;
  subjectType: string | null;
  subjectId: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
}

export interface TeamEnvironment {
  teamId: string | null;
  name: string | null;
  primaryColor: string | null;
  logoUrl: string | null;
  passwordLogin: boolean;
  googleLogin: boolean;
  microsoftLogin: boolean;
  ssoLogin: boolean;
  oidcIssuer: string | null;
}

export interface PluginRemote {
  name: string;
  entry: string;
  exposedModule: string;
  /** The slots it fills; null when the plugin did not say (it loads with every workspace page). */
  slots: string[] | null;
}

export type PluginState = 'READY' | 'NOT_CONFIGURED' | 'FAILED';

/** Where a plugin came from; `path` only for workspace admins. */
export interface PluginOrigin {
  kind: 'BUNDLED' | 'NPM' | 'BUILT_IN';
  packageName: string | null;
  packageVersion: string | null;
  path: string | null;
}

/** A plugin package the server could not load. */
export interface PluginLoadFailure {
  name: string;
  origin: PluginOrigin;
  problem: string;
}
export type PluginSettingKind = 'text' | 'secret' | 'boolean' | 'project';

export interface PluginSettingField {
  key: string;
  kind: PluginSettingKind | (string & {});
  label: string;
  description: string | null;
  required: boolean;
}

/** A secret is never sent back: `isSet` only says whether one is stored. */
export interface PluginSettingValue {
  key: string;
  text: string | null;
  flag: boolean | null;
  isSet: boolean;
}

export interface PluginSettingInput {
  key: string;
  text?: string;
  flag?: boolean;
}

export interface ConnectedAccount {
  externalId: string | null;
  label: string | null;
}

export interface Plugin {
  id: string;
  name: string;
  version: string;
  origin: PluginOrigin;
  description: string | null;
  state: PluginState;
  problem: string | null;
  permissions: Array<{ name: string; description: string }>;
  settingFields: PluginSettingField[];
  hasWebPart: boolean;
  connection: 'WORKSPACE' | 'USER' | null;
  installation: {
    id: string;
    installedAt: string;
    settings: PluginSettingValue[];
    connectedAccount: ConnectedAccount | null;
    enabledProjectCount: number;
    /** Where the provider sends this installation's webhooks; null when the plugin has none. */
    webhookUrl: string | null;
    /** What this version asks for that no admin has approved yet: it runs without these until approved. */
    pendingPermissions: Array<{ name: string; description: string }>;
  } | null;
}

export interface ExtensionLimits {
  installed: number;
  maximum: number | null;
}

export interface ProjectPlugin {
  plugin: Plugin;
  projectId: string;
  enabled: boolean;
}

export interface UserIntegration {
  plugin: Plugin;
  connectedAccount: ConnectedAccount | null;
}

const USER = 'id email name emailConfirmed hasPassword themeMode';
const TEAM = 'id subdomain name logoUrl primaryColor type inviteId invitedBy';
const AUTH = `accessToken expiresAt teamId user { ${USER} } availableTeams { ${TEAM} }`;
const WORKSPACE =
  'id name subdomain region logoUrl primaryColor allowedDomains publicLinksDisabled memberCount createdAt url';
const MEMBERSHIP = 'role workspaceAdmin effectiveRole permissions';
const PLUGIN = `id name version origin { kind packageName packageVersion path } description state problem hasWebPart connection permissions { name description }
  settingFields { key kind label description required }
  installation { id installedAt enabledProjectCount webhookUrl settings { key text flag isSet } connectedAccount { externalId label }
    pendingPermissions { name description } }`;

export const ops = {
  me: `query Me { me { ${USER} } }`,
  teamEnvironment: `query TeamEnvironment { teamEnvironment { teamId name primaryColor logoUrl passwordLogin googleLogin microsoftLogin ssoLogin oidcIssuer } }`,
  availableTeams: `query AvailableTeams { availableTeams { ${TEAM} } }`,
  signIn: `mutation SignIn($email: String!, $password: String!) { signIn(email: $email, password: $password) { ${AUTH} } }`,
  signUp: `mutation SignUp($input: SignUpInput!) { signUp(input: $input) { outcome user { ${USER} } } }`,
  sendConfirmationEmail: `mutation SendConfirmationEmail($input: SendConfirmationEmailInput!) {
    sendConfirmationEmail(input: $input) { success message outcome teamId codeChallenge } }`,
  confirmEmail: `mutation ConfirmEmail($input: ConfirmEmailInput!) { confirmEmail(input: $input) { ${AUTH} } }`,
  refreshSession: `mutation RefreshSession { refreshSession { ${AUTH} } }`,
  signOut: `mutation SignOut { signOut }`,
  requestPasswordReset: `mutation RequestPasswordReset($email: String!) { requestPasswordReset(email: $email) }`,
  resetPassword: `mutation ResetPassword($token: String!, $password: String!) { resetPassword(token: $token, password: $password) { ${AUTH} } }`,
  requestMagicLink: `mutation RequestMagicLink($email: String!) { requestMagicLink(email: $email) }`,
  magicLogin: `mutation MagicLogin($token: String!) { magicLogin(token: $token) { ${AUTH} } }`,
  requestUnlock: `mutation RequestUnlock($email: String!) { requestUnlock(email: $email) }`,
  unlockAccount: `mutation UnlockAccount($token: String!) { unlockAccount(token: $token) }`,
  updateProfile: `mutation UpdateProfile($name: String!) { updateProfile(name: $name) { ${USER} } }`,
  updateThemeMode: `mutation UpdateThemeMode($mode: ThemeMode!) { updateThemeMode(mode: $mode) { ${USER} } }`,
  changePassword: `mutation ChangePassword($currentPassword: String!, $newPassword: String!) {
    changePassword(currentPassword: $currentPassword, newPassword: $newPassword) }`,
  apiTokens: `query ApiTokens { apiTokens { id name lastFour createdAt lastUsedAt } apiTokenLimit }`,
  createApiToken: `mutation CreateApiToken($name: String!) { createApiToken(name: $name) { token apiToken { id name lastFour createdAt lastUsedAt } } }`,
  revokeApiToken: `mutation RevokeApiToken($id: ID!) { revokeApiToken(id: $id) }`,

  currentWorkspace: `query CurrentWorkspace { currentWorkspace { ${WORKSPACE} } myMembership { ${MEMBERSHIP} } }`,
  suggestSubdomain: `query SuggestSubdomain($name: String!) { suggestSubdomain(name: $name) }`,
  createWorkspace: `mutation CreateWorkspace($input: CreateWorkspaceInput!) { createWorkspace(input: $input) { redirectUrl workspace { ${WORKSPACE} } } }`,
  updateWorkspace: `mutation UpdateWorkspace($input: UpdateWorkspaceInput!) { updateWorkspace(input: $input) { ${WORKSPACE} } }`,
  setAllowedDomains: `mutation SetAllowedDomains($domains: [String!]!) { setAllowedDomains(domains: $domains) { ${WORKSPACE} } }`,
  joinWorkspaceByDomain: `mutation JoinWorkspaceByDomain($workspaceId: ID!) { joinWorkspaceByDomain(workspaceId: $workspaceId) { workspace { id name } } }`,
  members: `query Members($first: Int, $after: String, $search: String) {
    members(first: $first, after: $after, search: $search) { totalCount endCursor nodes { role workspaceAdmin effectiveRole joinedAt user { ${USER} } } } }`,
  invites: `query Invites { invites { id email role workspaceAdmin createdAt expiresAt acceptedAt invitedBy { name email } } }`,
  inviteMembers: `mutation InviteMembers($input: InviteMembersInput!) { inviteMembers(input: $input) { id email role } }`,
  revokeInvite: `mutation RevokeInvite($id: ID!) { revokeInvite(id: $id) }`,
  inviteByToken: `query InviteByToken($token: String!) { inviteByToken(token: $token) { workspaceName workspaceSubdomain email invitedBy role expired } }`,
  acceptInvite: `mutation AcceptInvite($token: String!) { acceptInvite(token: $token) { workspace { id name subdomain } role } }`,
  updateMemberRole: `mutation UpdateMemberRole($userId: ID!, $role: ProductRole!, $workspaceAdmin: Boolean!) {
    updateMemberRole(userId: $userId, role: $role, workspaceAdmin: $workspaceAdmin) { role workspaceAdmin effectiveRole user { id } } }`,
  removeMember: `mutation RemoveMember($userId: ID!) { removeMember(userId: $userId) }`,
  userGroups: `query UserGroups { userGroups { id name memberCount members { id name email } } }`,
  createUserGroup: `mutation CreateUserGroup($name: String!) { createUserGroup(name: $name) { id name } }`,
  renameUserGroup: `mutation RenameUserGroup($id: ID!, $name: String!) { renameUserGroup(id: $id, name: $name) { id name } }`,
  deleteUserGroup: `mutation DeleteUserGroup($id: ID!) { deleteUserGroup(id: $id) }`,
  setUserGroupMembers: `mutation SetUserGroupMembers($id: ID!, $userIds: [ID!]!) { setUserGroupMembers(id: $id, userIds: $userIds) { id memberCount } }`,
  auditLog: `query AuditLog($first: Int, $after: String) {
    auditLog(first: $first, after: $after) { endCursor nodes { id kind subjectType subjectId metadata createdAt actor { id name email } } } }`,
  pluginRemotes: `query PluginRemotes($projectId: ID) { pluginRemotes(projectId: $projectId) { name entry exposedModule slots } }`,
  plugins: `query Plugins { plugins { ${PLUGIN} } extensionLimits { installed maximum } }`,
  pluginLoadFailures: `query PluginLoadFailures { pluginLoadFailures { name problem origin { kind packageName packageVersion path } } }`,
  projectPlugins: `query ProjectPlugins($projectId: ID!) { projectPlugins(projectId: $projectId) { projectId enabled plugin { ${PLUGIN} } } }`,
  myIntegrations: `query MyIntegrations { myIntegrations { plugin { ${PLUGIN} } connectedAccount { externalId label } } }`,
  installPlugin: `mutation InstallPlugin($pluginId: ID!, $settings: [PluginSettingInput!]) { installPlugin(pluginId: $pluginId, settings: $settings) { ${PLUGIN} } }`,
  updatePluginSettings: `mutation UpdatePluginSettings($pluginId: ID!, $settings: [PluginSettingInput!]!) {
    updatePluginSettings(pluginId: $pluginId, settings: $settings) { ${PLUGIN} } }`,
  uninstallPlugin: `mutation UninstallPlugin($pluginId: ID!) { uninstallPlugin(pluginId: $pluginId) }`,
  setProjectPluginEnabled: `mutation SetProjectPluginEnabled($projectId: ID!, $pluginId: ID!, $enabled: Boolean!) {
    setProjectPluginEnabled(projectId: $projectId, pluginId: $pluginId, enabled: $enabled) { projectId enabled plugin { id } } }`,
  startIntegrationAuthorization: `mutation StartIntegrationAuthorization($pluginId: ID!, $source: String!, $origin: String) {
    startIntegrationAuthorization(pluginId: $pluginId, source: $source, origin: $origin) }`,
  disconnectIntegration: `mutation DisconnectIntegration($pluginId: ID!) { disconnectIntegration(pluginId: $pluginId) { id } }`,
  disconnectMyIntegration: `mutation DisconnectMyIntegration($pluginId: ID!) { disconnectMyIntegration(pluginId: $pluginId) }`,
  rotatePluginWebhookKey: `mutation RotatePluginWebhookKey($pluginId: ID!) { rotatePluginWebhookKey(pluginId: $pluginId) { id installation { id webhookUrl } } }`,
  approvePluginPermissions: `mutation ApprovePluginPermissions($pluginId: ID!) { approvePluginPermissions(pluginId: $pluginId) { id installation { id pendingPermissions { name } } } }`,
} as const;
