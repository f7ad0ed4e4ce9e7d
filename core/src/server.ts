import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type Koa from 'koa';
import type { Config } from './config.ts';
import { grantJobQueueAccess } from './db/connections.ts';
import { watchDatabase } from './db/availability.ts';
import { createInvalidations, EVERYTHING } from './db/invalidations.ts';
import { createEntitlements, ENTITLEMENTS_TOPIC, selfHostedSource } from './entitlements/index.ts';
import { createOutageLog } from './db/unavailable.ts';
import { openDatabases, type OpenedDatabases } from './db/open.ts';
import { ensureDataFolder } from './db/startup-error.ts';
import { assembleSchema } from './graphql/schema.ts';
import { graphqlRoute } from './graphql/route.ts';
import { createMailer, type Mailer } from './email/mailer.ts';
import { createAiService } from './ai/provider.ts';
import { createHttpApp } from './http/app.ts';
import { shareTrafficLimit } from './sharing/traffic.ts';
import { buildMemberContext, buildRequestContext, type ContextDeps } from './http/request-context.ts';
import { serveWebApp } from './http/static.ts';
import { loadPluginCatalog } from './extensions/catalog/catalog.ts';
import type { PluginRequestHook } from './extensions/runtime/egress.ts';
import { createExtensionsModule, extensionsModule, type ExtensionsServices } from './extensions/module.ts';
import type { PluginDefinition } from '@fieldbook/extensions-sdk/server';
import { identityModule } from './identity/module.ts';
import { loadModules, sortModules, type LoadedModule } from './kernel/registry.ts';
import { createEventBus, subscriberQueue, type DomainEvent } from './jobs/events.ts';
import { createForeground } from './jobs/foreground.ts';
import { JOB_SCHEMA, startJobSystem, type Job, type JobDefinition, type JobSystem } from './jobs/queue.ts';
import { createLogger, type Logger } from './logger.ts';
import { workspacesModule } from './workspaces/module.ts';

/** `web` serves HTTP, `worker` runs jobs, `all` does both in one process (the default). */
export type ProcessRole = 'web' | 'worker' | 'all';

export interface FieldbookOptions {
  config: Config;
  role?: ProcessRole;
  /** Domain modules beside core's own (normally discovered in `modules/`). */
  modules?: readonly LoadedModule[];
  logger?: Logger;
  /** Skip migrations when the database is known to be current (tests on a migrated template). */
  migrate?: boolean;
  /** Replaces the SMTP or log mailer. */
  mailer?: Mailer;
  /**
   * Plugins given directly (tests, the SDK's test host). Those in `plugins/` and the configured
   * packages load besides them unless `discoverPlugins` is false.
   */
  plugins?: readonly PluginDefinition[];
  /** Plugin package folders, loaded as the plugins folder's are (sandboxed unless trusted), besides the others. */
  pluginFolders?: readonly string[];
  discoverPlugins?: boolean;
  /** Sees every outbound request plugins make, after the egress checks (the SDK's test host records them). */
  onPluginRequest?: PluginRequestHook;
  /** Job timing knobs; tests make them short. */
  jobs?: { superviseIntervalSeconds?: number; pollingIntervalSeconds?: number; heartbeatSeconds?: number };
}

export interface Fieldbook {
  config: Config;
  logger: Logger;
  db: OpenedDatabases;
  jobs: JobSystem;
  http: Koa;
  services: Record<string, unknown>;
  /** Milliseconds each part of the start took, in order (the bench reports them). */
  startup: StartupPhases;
  /** Starts listening (web roles); resolves with the bound URL. */
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

export interface StartupPhases {
  plugins: number;
  postgres: number;
  migrations: number;
  jobSystem: number;
  modules: number;
  queues: number;
  pluginHost: number;
  http: number;
}

/** Core's own modules: identity, workspaces and the plugin host's web side are part of the kernel. */
export const coreModules: readonly LoadedModule[] = [identityModule, workspacesModule, extensionsModule];

export async function createFieldbook(opts: FieldbookOptions): Promise<Fieldbook> {
  const { config } = opts;
  const role = opts.role ?? 'all';
  const logger = opts.logger ?? createLogger(config.logLevel);
  let lapStarted = performance.now();
  const lap = () => {
    const now = performance.now();
    const ms = Math.round(now - lapStarted);
    lapStarted = now;
    return ms;
  };
  // A data folder the disk will not take fails the start here, saying why, before anything writes there.
  ensureDataFolder(config.dataDir);
  // Plugins load first: one that fails is logged and left out, and the rest start regardless.
  const catalog = await loadPluginCatalog({
    dir: opts.discoverPlugins === false ? null : config.plugins.dir,
    packages: opts.discoverPlugins === false ? [] : config.plugins.packages,
    definitions: opts.plugins ?? [],
    folders: opts.pluginFolders ?? [],
    env: config.plugins.env,
    projectRoot: config.projectRoot,
    logger,
    // Sandboxed plugins' bundles are kept in the data folder, so a start with unchanged plugins skips bundling.
    isolation: config.plugins.isolation && {
      ...config.plugins.isolation,
      bundleDir: join(config.dataDir, 'plugin-bundles'),
    },
    integrity: config.plugins.integrity,
  });
  const modules = [
    ...coreModules.map((m) =>
      m === extensionsModule ? createExtensionsModule(catalog, { onPluginRequest: opts.onPluginRequest }) : m,
    ),
    ...(opts.modules ?? []),
  ];
  sortModules(modules); // a cycle or a missing module fails here, before anything is opened
  const pluginsMs = lap();
  const db = await openDatabases(config, logger, { migrate: opts.migrate ?? true }).catch((err: unknown) => {
    catalog.close();
    throw err;
  });
  lap();
  // "The database is away" is said once per interval for the whole process, whoever meets it.
  const outage = createOutageLog(logger);
  // Jobs beside requests in one process make way for bursts of them (see foreground.ts).
  const foreground = role === 'all' ? createForeground() : undefined;
  let jobs: JobSystem;
  try {
    jobs = await startJobSystem({ connectionString: db.ownerUrl, logger, outage, foreground, ...opts.jobs });
  } catch (err) {
    catalog.close();
    await db.destroy();
    throw err;
  }
  const jobSystemMs = lap();
  const events = createEventBus(jobs.boss);
  const mailer = opts.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, logger });
  const invalidations = createInvalidations({ db: db.app, connectionString: db.appUrl, logger, outage });
  // Without a module that answers them (billing), the Self-hosted plan's entitlements apply. A
  // changed subscription is announced on the `entitlements` topic so every process forgets it.
  const entitlements = createEntitlements(selfHostedSource(config));
  invalidations.subscribe(ENTITLEMENTS_TOPIC, (key) => entitlements.invalidate(key === EVERYTHING ? undefined : key));
  const availability = watchDatabase({ connectionString: db.appUrl, logger, outage });
  let jobsRunning = true;
  // Modules receive the builder before the services it needs exist; no request arrives before then.
  let contextDeps: ContextDeps | null = null;
  const requestContext = (koa: Koa.Context) => {
    if (!contextDeps) throw new Error('a request arrived before Fieldbook finished starting');
    return buildRequestContext(koa, contextDeps);
  };
  const contributions = loadModules(modules, {
    config,
    db,
    logger,
    jobs: jobs.queue,
    events,
    mailer,
    invalidations,
    ai: createAiService({ config, db: db.app, logger }),
    entitlements,
    requestContext,
    memberContext: (workspaceId, userId) => {
      if (!contextDeps) throw new Error('work for a member started before Fieldbook finished starting');
      return buildMemberContext(contextDeps, workspaceId, userId);
    },
  });

  if (contributions.entitlements) entitlements.answerWith(contributions.entitlements.source);
  const modulesMs = lap();
  // Each event subscription becomes its own queue, subscribed to the event's topic.
  const eventJobs: JobDefinition[] = contributions.events.map((s) => ({
    queue: subscriberQueue(s.event, s.name),
    // A subscriber hears an event as its change commits, not at its next poll: automations and
    // notifications follow what people just did.
    settings: { notify: true },
    ...(s.batchSize ? { batchSize: s.batchSize } : {}),
    ...(s.concurrency ? { concurrency: s.concurrency } : {}),
    handler: (job) => s.handler(job.data as Parameters<typeof s.handler>[0], job as Parameters<typeof s.handler>[1]),
    ...(s.handleBatch
      ? {
          handleBatch: (batch: ReadonlyArray<Job<unknown>>) =>
            s.handleBatch!(batch.map((job) => job.data as DomainEvent)),
        }
      : {}),
  }));
  const allJobs = [...contributions.jobs, ...eventJobs];
  await jobs.register(allJobs);
  await grantJobQueueAccess(db.owner, JOB_SCHEMA);
  for (const s of contributions.events) await jobs.boss.subscribe(s.event, subscriberQueue(s.event, s.name));
  if (role !== 'web') await jobs.work(allJobs);
  const queuesMs = lap();

  await (contributions.services[extensionsModule.name] as ExtensionsServices).host.start();
  const pluginHostMs = lap();
  const { authenticator } = contributions.services[identityModule.name] as ReturnType<
    NonNullable<typeof identityModule.definition.services>
  >;
  const { directory } = contributions.services[workspacesModule.name] as ReturnType<
    NonNullable<typeof workspacesModule.definition.services>
  >;
  contextDeps = { app: db.app, rootHost: config.rootHost, authenticator, directory };
  const schema = assembleSchema(contributions.graphql);
  const http = createHttpApp({
    logger,
    release: config.release,
    routes: contributions.routes,
    graphql: graphqlRoute({
      schema,
      logger,
      buildContext: requestContext,
      anonymousIntrospection: config.anonymousIntrospection,
    }),
    webApp: serveWebApp(config.webDistDir),
    health: {
      availability,
      app: db.app,
      owner: db.owner,
      jobSchema: JOB_SCHEMA,
      jobsRunning: () => jobsRunning,
      liveness: () => db.embedded?.liveness() ?? { ok: true },
    },
    foreground,
    shareTraffic: shareTrafficLimit(db.app, { ...config.shareLinks, trustProxy: config.trustProxy }),
  });

  const startup: StartupPhases = {
    plugins: pluginsMs,
    postgres: Math.round(db.startup.postgresMs),
    migrations: Math.round(db.startup.migrationsMs),
    jobSystem: jobSystemMs,
    modules: modulesMs,
    queues: queuesMs,
    pluginHost: pluginHostMs,
    http: lap(),
  };
  let server: Server | null = null;
  return {
    config,
    logger,
    db,
    jobs,
    http,
    services: contributions.services,
    startup,
    listen(port = config.port, host = config.host) {
      return new Promise((resolve, reject) => {
        server = http.listen(port, host, () => {
          const addr = server!.address() as AddressInfo;
          // Links in emails and shares point where Fieldbook really listens when no PUBLIC_URL
          // says otherwise; the URL is changed in place, so everything holding it follows.
          if (config.publicUrlFromPort && config.publicUrl.port !== String(addr.port)) {
            config.publicUrl.port = String(addr.port);
            config.rootHost = config.publicUrl.host;
            if (contextDeps) contextDeps.rootHost = config.rootHost;
          }
          resolve(`http://${host === '0.0.0.0' ? 'localhost' : host}:${addr.port}`);
        });
        server.on('error', reject);
      });
    },
    async close() {
      // Everything that listens to the database stops first and together: on a signal the
      // embedded PostgreSQL is already shutting down, and what it says meanwhile is no news.
      db.embedded?.stopping();
      const httpClosed = server ? new Promise<void>((r) => server!.close(() => r())) : Promise.resolve();
      jobsRunning = false;
      await Promise.all([invalidations.close(), availability.close(), jobs.stop({ graceful: false }), httpClosed]);
      // No request or job calls a plugin any more: its sandbox's memory goes back.
      catalog.close();
      await db.destroy();
    },
  };
}
