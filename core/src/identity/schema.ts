/** GraphQL contract of sign-up and sign-in (002 §1, §3, §5, §7). */
export const identityTypeDefs = /* GraphQL */ `
  scalar DateTime
  scalar JSON

  type Query {
    "The signed-in person, or null."
    me: User
    "Sign-in options and branding for the workspace the request addresses (002 §3 team environment)."
    teamEnvironment: TeamEnvironment
    "Workspaces the signed-in person may enter: member of, invited to, or allowed by email domain."
    availableTeams: [AvailableTeam!]!
    "The signed-in person's notifications, newest first; unreadOnly leaves out those already read."
    notifications(first: Int = 50, unreadOnly: Boolean = false): [Notification!]!
    "How many of the signed-in person's notifications are unread (counted up to 1,000)."
    unreadNotificationCount: Int!
    "The signed-in person's choices, per notification kind, of in-app and email notifications."
    notificationPreferences: [NotificationPreference!]!
    "API tokens of the signed-in person in the current workspace."
    apiTokens: [ApiToken!]!
    "How many open API tokens one person may have in a workspace (50)."
    apiTokenLimit: Int!
    release: String!
  }

  type Mutation {
    "Starts sign-up or passwordless sign-in by email (002 §7 send confirmation email)."
    sendConfirmationEmail(input: SendConfirmationEmailInput!): ConfirmationEmailResult!
    "Confirms an email by link token, one-time code or OIDC code (002 §5)."
    confirmEmail(input: ConfirmEmailInput!): AuthPayload!
    signUp(input: SignUpInput!): SignUpResult!
    signIn(email: String!, password: String!): AuthPayload!
    refreshSession(refreshToken: String): AuthPayload!
    signOut: Boolean!
    requestPasswordReset(email: String!): Boolean!
    resetPassword(token: String!, password: String!): AuthPayload!
    requestMagicLink(email: String!): Boolean!
    magicLogin(token: String!): AuthPayload!
    requestUnlock(email: String!): Boolean!
    unlockAccount(token: String!): Boolean!
    updateProfile(name: String!): User!
    "The caller's theme, kept for them in every workspace (001 §2)."
    updateThemeMode(mode: ThemeMode!): User!
    changePassword(currentPassword: String!, newPassword: String!): Boolean!
    markNotificationsRead(ids: [ID!]!): Int!
    "Marks every unread notification of the signed-in person read; answers how many changed."
    markAllNotificationsRead: Int!
    "Turns one notification kind on or off, in-app or by email; answers every kind's choices."
    updateNotificationPreference(kind: String!, inApp: Boolean, email: Boolean): [NotificationPreference!]!
    createApiToken(name: String!): CreatedApiToken!
    revokeApiToken(id: ID!): Boolean!
  }

  enum ThemeMode { BROWSER_DEFAULT LIGHT DARK }

  type User {
    id: ID!
    email: String!
    name: String!
    emailConfirmed: Boolean!
    hasPassword: Boolean!
    "The person's own theme; BROWSER_DEFAULT until they pick light or dark (and on other people's User)."
    themeMode: ThemeMode!
    createdAt: DateTime!
  }

  type AuthPayload {
    accessToken: String!
    "Also set as an httpOnly cookie for the web app."
    refreshToken: String!
    expiresAt: DateTime!
    user: User!
    "The workspaces this person may enter now (002 §3 confirm-email user info)."
    availableTeams: [AvailableTeam!]!
    "The workspace the confirmation or invite leads to, if exactly one."
    teamId: ID
  }

  enum EmailConfirmationOutcome { EMAIL_SENT EMAIL_SKIPPED EMAIL_ONE_TIME_CODE }

  input SendConfirmationEmailInput {
    email: String!
    recaptchaToken: String!
    useOneTimeCodeFlow: Boolean
    forceCreateWorkspace: Boolean
    skipFastLoginRedirect: Boolean
  }

  type ConfirmationEmailResult {
    success: Boolean!
    message: String
    outcome: EmailConfirmationOutcome
    "Set with EMAIL_SKIPPED."
    teamId: ID
    "Set with EMAIL_ONE_TIME_CODE: the UUID to send back with the code."
    codeChallenge: ID
  }

  enum ConfirmMethod { EMAIL OIDC ONE_TIME_CODE }

  input ConfirmEmailInput {
    method: ConfirmMethod!
    token: String
    provider: String
    code: String
    codeChallenge: ID
  }

  input SignUpInput {
    email: String!
    password: String!
    name: String!
    "The invitation the person signs up from: the confirmation link carries it, so confirming joins that workspace."
    inviteToken: String
  }

  type SignUpResult {
    outcome: EmailConfirmationOutcome!
    user: User!
  }

  enum AvailableTeamType { DOMAIN INVITE MEMBER }

  type AvailableTeam {
    id: ID!
    subdomain: String!
    name: String!
    logoUrl: String
    primaryColor: String
    sortKey: DateTime!
    organizationId: ID
    type: AvailableTeamType!
    inviteId: ID
    invitedBy: String
  }

  type TeamEnvironment {
    teamId: ID
    name: String
    primaryColor: String
    logoUrl: String
    passwordLogin: Boolean!
    googleLogin: Boolean!
    microsoftLogin: Boolean!
    ssoLogin: Boolean!
    oidcIssuer: String
  }

  type NotificationPreference {
    kind: String!
    label: String!
    group: String!
    "How email reaches the person for this kind: IMMEDIATE, DIGEST (with the follow's frequency) or NONE."
    emailDelivery: String!
    "Always shown in-app."
    required: Boolean!
    inApp: Boolean!
    email: Boolean!
  }

  type Notification {
    id: ID!
    type: String!
    payload: JSON!
    read: Boolean!
    createdAt: DateTime!
  }

  type ApiToken {
    id: ID!
    name: String!
    lastFour: String!
    createdAt: DateTime!
    lastUsedAt: DateTime
  }

  type CreatedApiToken {
    apiToken: ApiToken!
    "Shown once: api.{teamId}.{secret} (001 §3.5)."
    token: String!
  }
`;
