/** GraphQL contract of automations (001 §3.1, §3.2, §5; 000 §2 /automation). */
export const automationTypeDefs = /* GraphQL */ `
  extend type Query {
    "Trigger events and composites, with their configure fields and the fields rules may test."
    automationEvents: [AutomationEvent!]!
    "Actions an automation can take here: built-ins and every ready plugin's."
    automationActions: [AutomationActionType!]!
    "Automations the caller can see: all for workspace admins, those of readable projects for others."
    automations: [Automation!]!
    automation(id: ID!): Automation!
    "An automation's runs, newest first, filtered by status and date."
    automationRuns(automationId: ID!, status: AutomationRunStatus, since: DateTime, until: DateTime, first: Int): [AutomationRun!]!
    automationSettings: AutomationSettings!
  }

  extend type Mutation {
    createAutomation(input: AutomationInput!): Automation!
    updateAutomation(id: ID!, input: AutomationInput!): Automation!
    "Turns an automation on or off; turning it on clears the reason it was stopped."
    setAutomationEnabled(id: ID!, enabled: Boolean!): Automation!
    deleteAutomation(id: ID!): Boolean!
    "What the automation would do for a recent run's event or a sample payload; runs nothing."
    dryRunAutomation(id: ID!, runId: ID, eventKey: String, payload: JSON): AutomationDryRun!
    "Runs an automation with a manual trigger now; answers the event id."
    runAutomation(id: ID!, payload: JSON): ID!
    "Publishes a user:activity event (001 §3.1); people may report only their own activity, admins anyone's."
    # API only, with no screen by design: product analytics systems report the activity of their users to Fieldbook.
    recordUserActivity(payload: JSON!): ID!
    "Workspace admins: the time zone schedules are read in, the runs allowed per minute, and the domains outside the workspace sendEmail may write to (at most 50)."
    updateAutomationSettings(timeZone: String, runsPerMinute: Int, emailDomains: [String!]): AutomationSettings!
  }

  enum AutomationTriggerType {
    Event
    Schedule
  }

  enum AutomationRunStatus {
    queued
    running
    succeeded
    failed
    skipped
  }

  type AutomationEventField {
    path: String!
    label: String!
    type: String!
    options: [String!]
    "The operators rules may use on this field (001 §5)."
    operators: [String!]!
  }

  type AutomationEvent {
    key: String!
    title: String!
    "Member events of a composite; the event itself otherwise."
    events: [String!]!
    composite: Boolean!
    context: [String!]!
    configure: [String!]!
    fields: [AutomationEventField!]!
  }

  type AutomationActionType {
    actionType: String!
    pluginId: String
    title: String!
    description: String!
    "Why it cannot be used here now, if so."
    unavailable: String
    "Objects the trigger's events must be about."
    needsContext: [String!]!
  }

  type AutomationTrigger {
    type: AutomationTriggerType!
    eventKey: String!
    configure: JSON!
    rules: JSON
    recurrence: JSON
  }

  type AutomationAction {
    actionType: String!
    pluginId: String
    parameters: JSON!
    executionOrder: Int!
  }

  type Automation {
    id: ID!
    title: String!
    ownerId: ID
    projectId: ID
    trigger: AutomationTrigger!
    actions: [AutomationAction!]!
    enabled: Boolean!
    "Why the automation was stopped, when the system turned it off."
    disabledReason: String
    nextRunAt: DateTime
    lastRun: AutomationRun
    "Whether the caller may change and run it: managers of its project or channel, workspace admins for workspace-wide events."
    viewerCanEdit: Boolean!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  type AutomationRunAction {
    position: Int!
    actionType: String!
    status: String!
    attempts: Int!
    output: JSON
    error: String
    durationMs: Int
  }

  type AutomationRun {
    id: ID!
    automationId: ID!
    eventId: String!
    eventKey: String!
    payload: JSON!
    ruleResult: Boolean!
    status: AutomationRunStatus!
    error: String
    createdAt: DateTime!
    finishedAt: DateTime
    durationMs: Int
    actions: [AutomationRunAction!]!
  }

  type AutomationDryRunStep {
    position: Int!
    actionType: String!
    title: String!
    parameters: JSON!
    wouldRun: Boolean!
    problem: String
  }

  type AutomationDryRun {
    eventKey: String!
    payload: JSON!
    configureMatches: Boolean!
    ruleResult: Boolean!
    steps: [AutomationDryRunStep!]!
  }

  type AutomationSettings {
    timeZone: String!
    runsPerMinute: Int!
    "Domains outside the workspace sendEmail may write to; members can always be emailed."
    emailDomains: [String!]!
  }

  input AutomationTriggerInput {
    type: AutomationTriggerType!
    eventKey: String!
    configure: JSON
    rules: JSON
    recurrence: JSON
  }

  input AutomationActionInput {
    actionType: String!
    pluginId: String
    parameters: JSON!
    executionOrder: Int!
  }

  input AutomationInput {
    title: String!
    trigger: AutomationTriggerInput!
    actions: [AutomationActionInput!]!
    enabled: Boolean
  }
`;
