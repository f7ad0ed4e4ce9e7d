export const extensionsTypeDefs = /* GraphQL */ `
  extend type Query {
    "Every plugin this Fieldbook has, with the current workspace's installation of each."
    plugins: [Plugin!]!
    "How many plugins the workspace has installed, and the cap (maximumExtensions), if any."
    extensionLimits: ExtensionLimits!
    "The installed plugins and whether each is enabled on a project (its managers change that)."
    projectPlugins(projectId: ID!): [ProjectPlugin!]!
    "Web parts the app should load: the workspace's installed plugins, or those enabled on a project."
    pluginRemotes(projectId: ID): [PluginRemote!]!
    "The signed-in person's own connected accounts, one row per plugin that offers them."
    myIntegrations: [UserIntegration!]!
    "Plugin packages that failed to load (not installed, changed since install, invalid, ...), with why; for workspace admins."
    pluginLoadFailures: [PluginLoadFailure!]!
  }

  extend type Mutation {
    installPlugin(pluginId: ID!, settings: [PluginSettingInput!]): Plugin!
    updatePluginSettings(pluginId: ID!, settings: [PluginSettingInput!]!): Plugin!
    uninstallPlugin(pluginId: ID!): Boolean!
    setProjectPluginEnabled(projectId: ID!, pluginId: ID!, enabled: Boolean!): ProjectPlugin!
    "Starts connecting an account at the provider; answers the consent page to open."
    startIntegrationAuthorization(pluginId: ID!, source: String!, origin: String): String!
    disconnectIntegration(pluginId: ID!): Plugin!
    disconnectMyIntegration(pluginId: ID!): Boolean!
    "Gives the installation a new webhook URL (workspace admins); the old one stops working at once."
    rotatePluginWebhookKey(pluginId: ID!): Plugin!
    "Approves the permissions the installed plugin's version asks for beyond those approved before (workspace admins)."
    approvePluginPermissions(pluginId: ID!): Plugin!
  }

  enum PluginState {
    READY
    NOT_CONFIGURED
    FAILED
  }

  enum PluginConnectionLevel {
    WORKSPACE
    USER
  }

  enum PluginOriginKind {
    "A folder of the server's plugins folder."
    BUNDLED
    "An npm package named in FIELDBOOK_PLUGINS."
    NPM
    "Part of Fieldbook's own code."
    BUILT_IN
  }

  "Where a plugin came from."
  type PluginOrigin {
    kind: PluginOriginKind!
    packageName: String
    packageVersion: String
    "The package's folder on the server; for workspace admins."
    path: String
    "The tarball integrity an npm package was checked against; for workspace admins."
    integrity: String
  }

  "A plugin package that could not be loaded: it cannot be installed until its problem is fixed."
  type PluginLoadFailure {
    "Its name, id, package name or folder name, whichever is known."
    name: String!
    origin: PluginOrigin!
    problem: String!
  }

  type Plugin {
    id: ID!
    name: String!
    version: String!
    origin: PluginOrigin!
    description: String
    state: PluginState!
    "Why the plugin cannot be used, for admins; null when ready."
    problem: String
    permissions: [PluginPermission!]!
    settingFields: [PluginSettingField!]!
    hasWebPart: Boolean!
    connection: PluginConnectionLevel
    webhookPaths: [String!]!
    installation: PluginInstallation
  }

  type PluginPermission {
    name: String!
    description: String!
  }

  type PluginSettingField {
    key: String!
    kind: String!
    label: String!
    description: String
    required: Boolean!
  }

  "Settings as the browser may see them: a secret only says whether it is set."
  type PluginSettingValue {
    key: String!
    text: String
    flag: Boolean
    isSet: Boolean!
  }

  input PluginSettingInput {
    key: String!
    "A text, secret or project value; an empty secret clears it, a left-out one is kept."
    text: String
    flag: Boolean
  }

  type PluginInstallation {
    id: ID!
    installedAt: String!
    settings: [PluginSettingValue!]!
    "The provider account the workspace connected, if any."
    connectedAccount: ConnectedAccount
    enabledProjectCount: Int!
    "Where the provider sends this installation's webhooks, for plugins with one; admins only."
    webhookUrl: String
    "Permissions this version of the plugin asks for that no admin has approved yet; it runs without them until approved. Admins only."
    pendingPermissions: [PluginPermission!]!
  }

  type ConnectedAccount {
    externalId: String
    label: String
  }

  type ExtensionLimits {
    installed: Int!
    maximum: Int
  }

  type ProjectPlugin {
    plugin: Plugin!
    projectId: ID!
    enabled: Boolean!
  }

  type PluginRemote {
    name: String!
    entry: String!
    exposedModule: String!
    "The slots the remote fills: load it only where one is drawn. Null: load it with every workspace page."
    slots: [String!]
  }

  type UserIntegration {
    plugin: Plugin!
    connectedAccount: ConnectedAccount
  }
`;
