/**
 * What a plan can switch on and cap (001 §3.9): the gated features and the numeric limits, each
 * with the upgrade-prompt key the screens open their upgrade dialog with. Billing's plans and
 * add-ons are written in these names; every module asks about them through `Entitlements`.
 */

export const FEATURES = {
  projectPermissions: 'project-permissions',
  userRoles: 'user-roles',
  userGroups: 'user-groups',
  invitePermissions: 'invite-permissions',
  scimProvisioning: 'scim-provisioning',
  retentionPolicy: 'data-retention',
  enterpriseAuthentication: 'custom-sso',
  enterpriseAuthenticationEnforcement: 'enforce-sso',
  dataResidency: 'data-residency',
  aiRegionChoice: 'ai-region',
  transcriptionProviderChoice: 'transcription-provider',
  customBranding: 'custom-branding',
  analytics: 'workspace-analytics',
  publicApi: 'public-api',
  publicLinkSharing: 'public-link-sharing',
  disablePublicAccess: 'disable-public-access',
  sessionAgeLimit: 'session-age-limit',
  videoRedactions: 'video-redactions',
  segments: 'segments',
  salesforce: 'salesforce-integration',
  askSearch: 'ask-search',
  translation: 'translation',
  templates: 'templates',
  extensions: 'extensions',
  nestedFolders: 'nested-folders',
  followingFolders: 'following-folders',
  generativeAi: 'generative-ai',
  clustering: 'clustering',
  summarization: 'summarization',
  export: 'export',
  dataOutIntegrations: 'data-out-integrations',
  webVttDownload: 'webvtt-download',
  recruit: 'recruit',
  advancedContacts: 'advanced-contacts',
} as const;

export type Feature = keyof typeof FEATURES;

/** Numeric limits; null is unlimited. */
export const LIMITS = {
  allowableSeatQuantity: 'increase-number-of-seats',
  includedPeople: 'increase-number-of-people',
  maximumChannels: 'increase-number-of-channels',
  maximumChannelsDataPoints: 'increase-number-of-channel-data-points',
  maximumExtensions: 'increase-number-of-extensions',
  maximumFreeViewers: 'increase-number-of-viewers',
  maximumMonthlyTranscriptionMinutes: 'increase-transcription-minutes',
  maximumProjectCategories: 'increase-number-of-project-categories',
  maximumProjects: 'increase-number-of-projects',
  maximumQuantity: 'increase-number-of-seats',
  minimumQuantity: 'increase-number-of-seats',
  maximumRecruitIncentiveFees: 'increase-recruit-incentive-fees',
  maximumRecruitRecruitmentFees: 'increase-recruit-recruitment-fees',
  maximumTemplates: 'increase-number-of-templates',
  maximumWorkspaceFields: 'increase-number-of-workspace-fields',
  maximumWorkspaceTagBoards: 'increase-number-of-tag-boards',
} as const;

export type LimitName = keyof typeof LIMITS;

/** One workspace's answer: which features it has and what it may hold. */
export interface EntitlementSet {
  /** The plan's name as people read it ("Self-hosted", "Team"). */
  plan: string;
  features: Readonly<Record<Feature, boolean>>;
  limits: Readonly<Record<LimitName, number | null>>;
}

export const featureNames = Object.keys(FEATURES) as Feature[];
export const limitNames = Object.keys(LIMITS) as LimitName[];
