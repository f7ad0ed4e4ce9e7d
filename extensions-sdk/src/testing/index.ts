/**
 * The plugin testing kit: a real Fieldbook (core and the research module) running only the plugins
 * under test, on a fresh database, driven through its public GraphQL API and webhook paths.
 *
 * The kit holds no Fieldbook code itself: it loads `@fieldbook/core/testing` when a host starts, so
 * plugins depend on the SDK alone and the SDK's types never reach into core.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JsonObject, PluginDefinition } from '../server/index.ts';

export * from './signers.ts';
export { recordRequest, type RecordedRequest } from './recorded-request.ts';

/** A request a plugin made through `ctx.http`, after the egress checks passed. */
export interface OutboundRequest {
  pluginId: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The body as sent when it was text (JSON or a form); null otherwise. */
  body: string | null;
}

/** Mail the test Fieldbook sent (sign-up confirmations and the like). */
export interface SentMail {
  to: string;
  subject: string;
  text: string;
}

/** What `@fieldbook/core/testing` starts: the parts of a running Fieldbook the kit drives. */
export interface TestFieldbook {
  url: string;
  mails: readonly SentMail[];
  /** Resolves once no job of the plugins' or the plugin host's queues is waiting or running. */
  drainJobs(timeoutMs?: number): Promise<void>;
  /** Runs a plugin's automation action for a workspace's installation, parameters checked first. */
  runAction(input: {
    pluginId: string;
    workspaceId: string;
    key: string;
    params: unknown;
    trigger?: { event: string; payload: JsonObject };
  }): Promise<{ summary?: string } | void>;
  /** Webhook events the host stored for a plugin, oldest first. */
  storedEvents(pluginId: string): Promise<Array<{ eventId: string; handled: boolean }>>;
  close(): Promise<void>;
}

export interface TestFieldbookOptions {
  plugins: readonly PluginDefinition[];
  /**
   * Plugin package folders (absolute paths), loaded as Fieldbook loads a plugin package: its
   * `fieldbook.server` entry bundled into a sandbox of its own, with the same limits; its server
   * code never runs in the test's process.
   */
  pluginFolders?: readonly string[];
  /** What the plugins' `config` declarations read, e.g. `SLACK_SIGNING_SECRET`. */
  env: Readonly<Record<string, string | undefined>>;
  databaseUrl: string;
  secretKey: string;
  onPluginRequest(request: OutboundRequest): void;
}

/** A PostgreSQL the kit started itself, with a template database migrated to Fieldbook's schema. */
export interface TestDatabase {
  superUrl: string;
  template: string;
  /** Stops the server and removes its files. */
  stop(): Promise<void>;
}

/** The shape of `@fieldbook/core/testing`, which the kit loads at run time. */
export interface CoreTesting {
  startTestFieldbook(options: TestFieldbookOptions): Promise<TestFieldbook>;
  createDatabaseFromTemplate(superUrl: string, template: string): Promise<string>;
  /** Starts an embedded PostgreSQL in a temporary folder and migrates a template database. */
  startTestDatabase(secretKey: string): Promise<TestDatabase>;
}

export interface GqlAnswer<T> {
  status: number;
  data: T | null;
  errors: Array<{ message: string; extensions?: { errorCode?: string; field?: string } }> | undefined;
  headers: Headers;
}

/** A signed-in workspace admin: whom `gql` and the helpers act as. */
export interface TestAdmin {
  userId: string;
  email: string;
  accessToken: string;
  workspaceId: string;
}

export interface TestNote {
  id: string;
  title: string;
  contentText: string;
}

export interface TestHost {
  url: string;
  /** Every outbound request the plugins made, oldest first. */
  outbound: OutboundRequest[];
  /** Signs up a confirmed person who creates a workspace; the first one becomes the default admin. */
  signUpAdmin(): Promise<TestAdmin>;
  gql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    as?: TestAdmin | null,
  ): Promise<GqlAnswer<T>>;
  /** Installs a plugin in the admin's workspace with these settings (text values, or booleans). */
  install(pluginId: string, settings?: Record<string, string | boolean>, as?: TestAdmin): Promise<void>;
  createProject(title: string, as?: TestAdmin): Promise<string>;
  enable(pluginId: string, projectId: string, as?: TestAdmin): Promise<void>;
  /** A raw POST to the app, e.g. to a plugin's webhook path. */
  sendWebhook(path: string, body: string, headers?: Record<string, string>): Promise<Response>;
  /**
   * The webhook URL of the admin's workspace's installation of the plugin (`installationWebhook`),
   * as Settings → Extensions shows it to paste into the provider: under Fieldbook's public address,
   * `{PUBLIC_URL}/hooks/{pluginId}/{key}`. Throws when the plugin is not installed there or has no
   * such webhook.
   */
  installationWebhookUrl(pluginId: string, as?: TestAdmin): Promise<string>;
  /**
   * POSTs `body` to that installation's webhook URL on this test host, as the provider would:
   * verified with the installation's settings (401 when refused, nothing stored), then handled in a job.
   */
  deliverToInstallation(
    pluginId: string,
    body: string,
    headers?: Record<string, string>,
    as?: TestAdmin,
  ): Promise<Response>;
  notes(projectId: string, as?: TestAdmin): Promise<TestNote[]>;
  /** Starts the plugin's OAuth flow as the admin: the provider URL, and the cookie binding it to this "browser". */
  startAuthorization(pluginId: string, as?: TestAdmin): Promise<{ authorizeUrl: URL; cookie: string }>;
  runAction(pluginId: string, key: string, params: unknown, as?: TestAdmin): Promise<{ summary?: string } | void>;
  storedEvents(pluginId: string): Promise<Array<{ eventId: string; handled: boolean }>>;
  drainJobs(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface TestHostOptions {
  /** Plugin definitions (`import plugin from './index.ts'`), run in the test's own process. */
  plugins: readonly PluginDefinition[];
  /**
   * Plugin package folders, each the folder holding a plugin's package.json, as a path or a `file:`
   * URL (`new URL('..', import.meta.url)` from a test in `server/`). Each loads exactly as Fieldbook
   * loads an installed plugin: its `fieldbook.server` entry bundled into a sandbox of its own, with
   * the same limits. One that fails to load fails `createTestHost` with Fieldbook's reason.
   */
  pluginFolders?: ReadonlyArray<string | URL>;
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * A database the host may use; otherwise FIELDBOOK_TEST_DATABASE_URL, or a fresh one from the
   * template FIELDBOOK_TEST_PG_URL and FIELDBOOK_TEST_TEMPLATE name, or else a fresh one from an
   * embedded PostgreSQL the kit starts itself (in a temporary folder, removed once the last host
   * of the process has closed).
   */
  databaseUrl?: string;
}

const PASSWORD = 'Plugin-Test-Horse-42';
let people = 0;

const DEFAULT_SECRET = 'plugin-test-secret-key-that-is-long-enough-0123456789';
const secretKey = () => process.env.FIELDBOOK_TEST_SECRET ?? DEFAULT_SECRET;

/**
 * The embedded PostgreSQL the kit started, shared by the hosts of this process: starting and
 * migrating one takes seconds, copying its template into a fresh database per host does not.
 * It stops when its last host closes.
 */
let embedded: { database: Promise<TestDatabase>; hosts: number } | null = null;

async function databaseFor(
  options: TestHostOptions,
  core: CoreTesting,
): Promise<{ url: string; release(): Promise<void> }> {
  const nothing = async () => undefined;
  if (options.databaseUrl) return { url: options.databaseUrl, release: nothing };
  if (process.env.FIELDBOOK_TEST_DATABASE_URL)
    return { url: process.env.FIELDBOOK_TEST_DATABASE_URL, release: nothing };
  const superUrl = process.env.FIELDBOOK_TEST_PG_URL;
  const template = process.env.FIELDBOOK_TEST_TEMPLATE;
  if (superUrl && template) return { url: await core.createDatabaseFromTemplate(superUrl, template), release: nothing };
  if (!embedded) {
    const database = core.startTestDatabase(secretKey());
    embedded = { database, hosts: 0 };
    // A failed start is not kept: the next host tries again.
    database.catch(() => {
      if (embedded?.database === database) embedded = null;
    });
  }
  const shared = embedded;
  shared.hosts += 1;
  const release = async () => {
    shared.hosts -= 1;
    if (shared.hosts > 0) return;
    if (embedded === shared) embedded = null;
    await (await shared.database).stop();
  };
  try {
    const db = await shared.database;
    return { url: await core.createDatabaseFromTemplate(db.superUrl, db.template), release };
  } catch (err) {
    shared.hosts -= 1;
    if (shared.hosts === 0 && embedded === shared) embedded = null;
    throw err;
  }
}

/** A folder given as a path or a `file:` URL (`new URL('..', import.meta.url)` ends in a slash). */
function folderPath(folder: string | URL): string {
  const path = folder instanceof URL || folder.startsWith('file:') ? fileURLToPath(folder) : folder;
  return resolve(path);
}

function check<T>(answer: GqlAnswer<T>, what: string): T {
  if (answer.errors?.length || !answer.data) throw new Error(`${what} failed: ${JSON.stringify(answer.errors)}`);
  return answer.data;
}

/** Starts a Fieldbook with only `plugins` loaded, listening on a free port. */
export async function createTestHost(options: TestHostOptions): Promise<TestHost> {
  // A variable specifier keeps core out of the SDK's types; the shape is checked by CoreTesting.
  const specifier = '@fieldbook/core/testing';
  const core = (await import(specifier).catch((err: unknown) => {
    throw new Error(
      'createTestHost runs Fieldbook from the package @fieldbook/core: add it to your devDependencies (npm install --save-dev @fieldbook/core).',
      { cause: err },
    );
  })) as CoreTesting;
  const outbound: OutboundRequest[] = [];
  const database = await databaseFor(options, core);
  let app: TestFieldbook;
  try {
    app = await core.startTestFieldbook({
      plugins: options.plugins,
      pluginFolders: (options.pluginFolders ?? []).map(folderPath),
      env: options.env ?? {},
      databaseUrl: database.url,
      secretKey: secretKey(),
      onPluginRequest: (request) => outbound.push(request),
    });
  } catch (err) {
    await database.release();
    throw err;
  }
  let defaultAdmin: TestAdmin | null = null;
  const adminOf = (as: TestAdmin | undefined): TestAdmin => {
    const admin = as ?? defaultAdmin;
    if (!admin) throw new Error('Call signUpAdmin() first.');
    return admin;
  };

  const gql = async <T>(
    query: string,
    variables: Record<string, unknown> = {},
    as?: TestAdmin | null,
  ): Promise<GqlAnswer<T>> => {
    const who = as === null ? null : (as ?? defaultAdmin);
    const res = await fetch(`${app.url}/api/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json',
        ...(who ? { authorization: `Bearer ${who.accessToken}`, 'x-fieldbook-workspace': who.workspaceId } : {}),
      },
      body: JSON.stringify({ query, variables }),
    });
    const json = (await res.json()) as { data?: T; errors?: GqlAnswer<T>['errors'] };
    return { status: res.status, data: json.data ?? null, errors: json.errors, headers: res.headers };
  };

  const installationWebhookUrl = async (pluginId: string, as?: TestAdmin): Promise<string> => {
    const data = check(
      await gql<{ plugins: Array<{ id: string; installation: { webhookUrl: string | null } | null }> }>(
        '{ plugins { id installation { webhookUrl } } }',
        {},
        adminOf(as),
      ),
      'plugins',
    );
    const plugin = data.plugins.find((p) => p.id === pluginId);
    if (!plugin) throw new Error(`No plugin ${pluginId} is loaded.`);
    if (!plugin.installation)
      throw new Error(
        `${pluginId} is not installed in the workspace ${adminOf(as).workspaceId}: call install() first.`,
      );
    if (!plugin.installation.webhookUrl)
      throw new Error(`${pluginId} declares no installationWebhook, so its installations have no webhook URL.`);
    return plugin.installation.webhookUrl;
  };

  const host: TestHost = {
    url: app.url,
    outbound,
    async signUpAdmin() {
      people += 1;
      const email = `admin-${Date.now().toString(36)}-${people}@example.com`;
      check(
        await gql(
          `mutation($input: SignUpInput!) { signUp(input: $input) { outcome } }`,
          { input: { email, password: PASSWORD, name: 'Test Admin' } },
          null,
        ),
        'signUp',
      );
      const mail = app.mails.findLast((m) => m.to === email && m.subject.includes('Confirm'));
      const token = mail && /[?&]token=([^&\s"<>]+)/.exec(mail.text)?.[1];
      if (!token) throw new Error(`No confirmation mail reached ${email}.`);
      const confirmed = check(
        await gql<{ confirmEmail: { accessToken: string; user: { id: string } } }>(
          `mutation($token: String!) { confirmEmail(input: { method: EMAIL, token: $token }) { accessToken user { id } } }`,
          { token: decodeURIComponent(token) },
          null,
        ),
        'confirmEmail',
      ).confirmEmail;
      const res = await fetch(`${app.url}/api/graphql`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/graphql-response+json',
          authorization: `Bearer ${confirmed.accessToken}`,
        },
        body: JSON.stringify({
          query: `mutation($input: CreateWorkspaceInput!) { createWorkspace(input: $input) { workspace { id } } }`,
          variables: { input: { method: 'AUTH0', teamName: `Team ${people} ${Date.now().toString(36)}` } },
        }),
      });
      const created = (await res.json()) as {
        data?: { createWorkspace: { workspace: { id: string } } };
        errors?: unknown;
      };
      if (!created.data) throw new Error(`createWorkspace failed: ${JSON.stringify(created.errors)}`);
      const admin = {
        userId: confirmed.user.id,
        email,
        accessToken: confirmed.accessToken,
        workspaceId: created.data.createWorkspace.workspace.id,
      };
      defaultAdmin ??= admin;
      return admin;
    },
    gql,
    async install(pluginId, settings = {}, as) {
      const input = Object.entries(settings).map(([key, value]) =>
        typeof value === 'boolean' ? { key, flag: value } : { key, text: value },
      );
      check(
        await gql(
          `mutation($p: ID!, $s: [PluginSettingInput!]) { installPlugin(pluginId: $p, settings: $s) { id } }`,
          { p: pluginId, s: input },
          adminOf(as),
        ),
        'installPlugin',
      );
    },
    async createProject(title, as) {
      const data = check(
        await gql<{ createProject: { id: string } }>(
          `mutation($t: String!) { createProject(input: { title: $t }) { id } }`,
          { t: title },
          adminOf(as),
        ),
        'createProject',
      );
      return data.createProject.id;
    },
    async enable(pluginId, projectId, as) {
      check(
        await gql(
          `mutation($pr: ID!, $p: ID!) { setProjectPluginEnabled(projectId: $pr, pluginId: $p, enabled: true) { enabled } }`,
          { pr: projectId, p: pluginId },
          adminOf(as),
        ),
        'setProjectPluginEnabled',
      );
    },
    sendWebhook(path, body, headers = {}) {
      return fetch(`${app.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    },
    installationWebhookUrl: (pluginId, as) => installationWebhookUrl(pluginId, as),
    async deliverToInstallation(pluginId, body, headers = {}, as) {
      // The URL names the public address; the delivery goes to this host under the same path.
      const { pathname } = new URL(await installationWebhookUrl(pluginId, as));
      return host.sendWebhook(pathname, body, headers);
    },
    async notes(projectId, as) {
      const data = check(
        await gql<{ notes: { nodes: TestNote[] } }>(
          `query($p: ID!) { notes(projectId: $p, first: 200) { nodes { id title contentText } } }`,
          { p: projectId },
          adminOf(as),
        ),
        'notes',
      );
      return data.notes.nodes;
    },
    async startAuthorization(pluginId, as) {
      const answer = await gql<{ startIntegrationAuthorization: string }>(
        `mutation($p: ID!) { startIntegrationAuthorization(pluginId: $p, source: "test") }`,
        { p: pluginId },
        adminOf(as),
      );
      const url = check(answer, 'startIntegrationAuthorization').startIntegrationAuthorization;
      const cookie = answer.headers
        .getSetCookie()
        .map((c) => c.split(';')[0]!)
        .join('; ');
      return { authorizeUrl: new URL(url), cookie };
    },
    runAction(pluginId, key, params, as) {
      return app.runAction({ pluginId, workspaceId: adminOf(as).workspaceId, key, params });
    },
    storedEvents: (pluginId) => app.storedEvents(pluginId),
    drainJobs: (timeoutMs) => app.drainJobs(timeoutMs),
    async close() {
      try {
        await app.close();
      } finally {
        await database.release();
      }
    },
  };
  return host;
}
