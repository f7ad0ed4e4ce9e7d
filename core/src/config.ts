import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { diskStartupErrorFrom, ensureDataFolder } from './db/startup-error.ts';
import { defaultNpmCache } from './extensions/catalog/integrity.ts';

/** Every setting Fieldbook reads, with its environment variable. The README lists the same. */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Public origin of the root-domain app, e.g. https://fieldbook.example.com. */
  // Unset: http://localhost on the port Fieldbook listens on (loadConfig, and listen for PORT=0).
  PUBLIC_URL: z.string().url().optional(),
  /** Where Fieldbook keeps its embedded database and generated secret. */
  FIELDBOOK_DATA_DIR: z.string().default('.data'),
  /** Owner connection (migrations, job queue). Unset: the embedded PostgreSQL. */
  DATABASE_URL: z.string().optional(),
  /** Application connection; a role that owns no table and lacks BYPASSRLS. Derived when unset. */
  DATABASE_APP_URL: z.string().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /** Connections of the pool one workspace's requests cannot take, kept for the others; unset: a quarter of the pool. */
  DATABASE_POOL_RESERVE: z.coerce.number().int().min(0).max(199).optional(),
  /** How long a request waits for its workspace's turn at the pool before it is answered 429. */
  DATABASE_WORKSPACE_QUEUE_SECONDS: z.coerce.number().min(0).default(20),
  /** Development and tests: `warn` or `throw` when work holding a pooled connection asks the pool for another. */
  DATABASE_NESTED_ACQUIRE_CHECK: z.enum(['off', 'warn', 'throw']).default('off'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(5433),
  /** Times the embedded PostgreSQL is started again after it dies, waiting longer before each (1 s, 2 s, 4 s… up to 15 s). */
  EMBEDDED_PG_RESTART_ATTEMPTS: z.coerce.number().int().min(0).max(100).default(8),
  /** Key for signing tokens and encrypting secrets; generated into the data folder when unset. */
  SECRET_KEY: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).default(900),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .default(60 * 60 * 24 * 30),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Fieldbook <no-reply@localhost>'),
  LOGIN_MAX_FAILED_ATTEMPTS: z.coerce.number().int().min(1).default(10),
  /** Password attempts one client address may make per window (successful ones are given back). */
  SIGN_IN_ADDRESS_LIMIT: z.coerce.number().int().min(1).default(30),
  SIGN_IN_ADDRESS_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  /** Password attempts per email address (known or not) per window. */
  SIGN_IN_ACCOUNT_LIMIT: z.coerce.number().int().min(1).default(10),
  SIGN_IN_ACCOUNT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  /** Password hashes (128 MiB each) one process computes at once, and how long others may queue. */
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).default(2),
  PASSWORD_HASH_QUEUE_SECONDS: z.coerce.number().min(0).default(10),
  /** log2 of scrypt's N for new password hashes: 17 (128 MiB) in production; test servers set it lower. */
  PASSWORD_HASH_COST: z.coerce.number().int().min(10).max(20).default(17),
  /** Reverse proxies in front of Fieldbook whose X-Forwarded-For entry names the client; 0 reads the socket. */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  MICROSOFT_CLIENT_ID: z.string().optional(),
  MICROSOFT_CLIENT_SECRET: z.string().optional(),
  MICROSOFT_TENANT: z.string().default('common'),
  /** Lets HTTP (not only HTTPS) OIDC issuers through; for local providers in development and tests. */
  OIDC_ALLOW_INSECURE: z.enum(['true', 'false']).default('false'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RELEASE: z.string().default('dev'),
  WEB_DIST_DIR: z.string().optional(),
  /** Search with Typesense at this URL instead of PostgreSQL, e.g. http://localhost:8108. */
  TYPESENSE_URL: z.string().url().optional(),
  TYPESENSE_API_KEY: z.string().optional(),
  /** PostgreSQL search: relevance ranks at most this many matches of a result type; with fewer, it ranks them all. */
  SEARCH_RANK_CANDIDATES: z.coerce.number().int().min(1).default(500),
  /** PostgreSQL search: counts up to this are exact, larger ones estimated ("about 410,000"). */
  SEARCH_EXACT_COUNT_LIMIT: z.coerce.number().int().min(0).default(5000),
  /** PostgreSQL search: rows of a table an estimate samples. */
  SEARCH_ESTIMATE_SAMPLE_ROWS: z.coerce.number().int().min(1).default(3000),
  /** Searches (search page, agents' and MCP tools, Ask) one member runs at once; more wait their turn. */
  SEARCH_CONCURRENCY_PER_MEMBER: z.coerce.number().int().min(1).default(2),
  /** Searches one workspace runs at once, all its members together. */
  SEARCH_CONCURRENCY_PER_WORKSPACE: z.coerce.number().int().min(1).default(4),
  /** Searches of one member that may wait for a turn; more are refused at once (429). */
  SEARCH_QUEUE_PER_MEMBER: z.coerce.number().int().min(0).default(10),
  /** How long a search waits for its turn before it is refused (429). */
  SEARCH_QUEUE_SECONDS: z.coerce.number().min(0).default(10),
  /** Anonymous requests with one public link's token per minute, whoever sends them. */
  SHARE_LINK_REQUESTS_PER_TOKEN: z.coerce.number().int().min(1).default(300),
  /** Anonymous requests with public links' tokens from one client address per minute. */
  SHARE_LINK_REQUESTS_PER_ADDRESS: z.coerce.number().int().min(1).default(120),
  /** Seconds a shared dashboard's figures are reused before they are computed again; 0 computes every time. */
  SHARE_LINK_CACHE_SECONDS: z.coerce.number().min(0).default(30),
  /** npm packages to load as plugins besides those in `plugins/`, comma-separated. */
  FIELDBOOK_PLUGINS: z.string().default(''),
  /** Folder of the bundled plugins. */
  FIELDBOOK_PLUGINS_DIR: z.string().optional(),
  /** `on`: each plugin package's server code runs in a sandbox of its own; `off`: all run in the server process. */
  FIELDBOOK_PLUGIN_SANDBOX: z.enum(['on', 'off']).default('on'),
  /** Bundled plugins (folder names in the plugins folder) trusted to run in the server process, comma-separated. */
  FIELDBOOK_TRUSTED_PLUGINS: z.string().default(''),
  /** npm plugin packages' tarball integrities, pinned by the operator: `name=sha512-…`, comma-separated. */
  FIELDBOOK_PLUGIN_INTEGRITY: z.string().default(''),
  /** npm's cache folder, where npm plugins' tarballs are found to check the installed files; default npm's own. */
  FIELDBOOK_NPM_CACHE: z.string().optional(),
  /** The most plugins one workspace may have installed (maximumExtensions, 001 §3.9); unset is no cap. */
  MAXIMUM_EXTENSIONS: z.coerce.number().int().min(0).optional(),
  /** The most channels one workspace may have (maximumChannels, 001 §3.9); unset is no cap. */
  MAXIMUM_CHANNELS: z.coerce.number().int().min(0).optional(),
  /** The most channel data points one workspace may hold (maximumChannelsDataPoints, 001 §3.9); unset is no cap. */
  MAXIMUM_CHANNELS_DATA_POINTS: z.coerce.number().int().min(0).optional(),
  /** Lets anonymous requests introspect the schema; unset, only in development (NODE_ENV=development). */
  GRAPHQL_INTROSPECTION: z.enum(['true', 'false']).optional(),
  NODE_ENV: z.string().optional(),
  /** Any OpenAI-compatible server (OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp), e.g. http://localhost:11434/v1. Unset: no AI model. */
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_API_KEY: z.string().optional(),
  /** The chat model answers and summaries are written with. */
  OPENAI_CHAT_MODEL: z.string().default('gpt-4o-mini'),
  /** The embedding model for semantic retrieval; unset, Ask retrieves lexically only. */
  OPENAI_EMBEDDING_MODEL: z.string().optional(),
  /** Seconds one model call may take before it is abandoned (and retried). */
  OPENAI_TIMEOUT_SECONDS: z.coerce.number().min(1).default(60),
  /** Retries of a call answered 429 or 5xx (Retry-After honoured), or that timed out. */
  OPENAI_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  /** The AI steps a note's new content sets off (002 §3 modes); `off` stops them in this process's deployment. */
  AI_STEPS: z.enum(['on', 'off']).default('on'),
  /** Seconds of quiet after a note's last content change before its AI steps run (one run per burst of edits). */
  AI_STEPS_DELAY_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
});

export type Env = z.infer<typeof EnvSchema>;

export interface Config {
  port: number;
  host: string;
  publicUrl: URL;
  /** PUBLIC_URL was not set: publicUrl is localhost on the listening port, and follows it when that port is only known once listening (PORT=0). */
  publicUrlFromPort?: boolean;
  /** Host (with port) of the root-domain app; workspace apps live on `{subdomain}.{rootHost}`. */
  rootHost: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databaseAppUrl: string | undefined;
  databasePoolMax: number;
  /** Connections one workspace's transactions cannot take (DATABASE_POOL_RESERVE, capped below the pool). */
  databasePoolReserve: number;
  databaseWorkspaceQueueSeconds: number;
  databaseNestedAcquireCheck: 'off' | 'warn' | 'throw';
  embeddedPgPort: number;
  /** Times a dead embedded PostgreSQL is started again before liveness (/ping) fails. */
  embeddedPgRestartAttempts: number;
  /** Set by test environments only (no environment variable): the embedded cluster holds throwaway data and skips flushing commits to disk. */
  embeddedPgThrowaway?: boolean;
  secretKey: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  loginMaxFailedAttempts: number;
  /** Limits on password attempts and hashing (README: Security). */
  signInLimits: {
    perAddress: { limit: number; windowSeconds: number };
    perAccount: { limit: number; windowSeconds: number };
    hashConcurrency: number;
    hashQueueSeconds: number;
  };
  /**
   * scrypt cost of new password hashes. Stored hashes name their own cost, so changing it keeps
   * every existing password working.
   */
  passwordHashCost: { N: number; r: number; p: number };
  /** How many proxies' X-Forwarded-For entries to trust for the client address (0: none). */
  trustProxy: number;
  oidc: {
    issuer: string | undefined;
    clientId: string | undefined;
    clientSecret: string | undefined;
    allowInsecure: boolean;
  };
  google: { clientId: string | undefined; clientSecret: string | undefined };
  microsoft: { clientId: string | undefined; clientSecret: string | undefined; tenant: string };
  logLevel: Env['LOG_LEVEL'];
  release: string;
  webDistDir: string;
  typesense: { url: string | undefined; apiKey: string | undefined };
  /** How much of a large search the PostgreSQL engine ranks and counts exactly. */
  search: { rankCandidates: number; exactCountLimit: number; estimateSampleRows: number };
  /** Searches running at once per member and per workspace, and how many may wait and for how long. */
  searchConcurrency: { perMember: number; perWorkspace: number; queuePerMember: number; queueSeconds: number };
  /** Anonymous traffic of public links: requests per minute per token and per client address, and figures' reuse. */
  shareLinks: { requestsPerToken: number; requestsPerAddress: number; cacheSeconds: number };
  plugins: {
    /** npm package names loaded as plugins, beside the folder's. */
    packages: readonly string[];
    dir: string;
    /** Cap on installed plugins per workspace; null when there is none. */
    maximumExtensions: number | null;
    /** What plugins' `config` declarations read (the process environment). */
    env: Readonly<Record<string, string | undefined>>;
    /** Where plugin packages' server code runs; unset, in the server process. */
    isolation?: { sandbox: boolean; trusted: readonly string[] };
    /** How npm plugin packages are checked against their integrity before they load. */
    integrity?: { pinned: string; npmCache: string };
  };
  /** Whether requests without a signed-in person may introspect the GraphQL schema. */
  anonymousIntrospection: boolean;
  /** Channel limits of the plan (001 §3.9); null is no cap. */
  channels: { maximumChannels: number | null; maximumChannelsDataPoints: number | null };
  /** The OpenAI-compatible endpoint; `baseUrl` undefined means no AI model (local features only). */
  ai: {
    baseUrl: string | undefined;
    apiKey: string | undefined;
    chatModel: string;
    embeddingModel: string | undefined;
    timeoutMs: number;
    maxRetries: number;
    /** First backoff before a retry without Retry-After; doubles each time. */
    retryBaseMs: number;
  };
  /** The AI steps run on a note's content (summarize, highlights, tags, redact, insights). */
  aiSteps: { enabled: boolean; delaySeconds: number };
  projectRoot: string;
}

const projectRoot = resolve(import.meta.dirname, '../..');

/** Reads the environment once, failing with every invalid variable named. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(projectRoot, e.FIELDBOOK_DATA_DIR);
  const publicUrl = new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    publicUrlFromPort: !e.PUBLIC_URL,
    rootHost: publicUrl.host,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databaseAppUrl: e.DATABASE_APP_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    databasePoolReserve: Math.min(
      e.DATABASE_POOL_RESERVE ?? Math.ceil(e.DATABASE_POOL_MAX / 4),
      e.DATABASE_POOL_MAX - 1,
    ),
    databaseWorkspaceQueueSeconds: e.DATABASE_WORKSPACE_QUEUE_SECONDS,
    databaseNestedAcquireCheck: e.DATABASE_NESTED_ACQUIRE_CHECK,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    embeddedPgRestartAttempts: e.EMBEDDED_PG_RESTART_ATTEMPTS,
    secretKey: e.SECRET_KEY ?? overrides.secretKey ?? readOrCreateSecret(dataDir),
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: e.REFRESH_TOKEN_TTL_SECONDS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    loginMaxFailedAttempts: e.LOGIN_MAX_FAILED_ATTEMPTS,
    signInLimits: {
      perAddress: { limit: e.SIGN_IN_ADDRESS_LIMIT, windowSeconds: e.SIGN_IN_ADDRESS_WINDOW_SECONDS },
      perAccount: { limit: e.SIGN_IN_ACCOUNT_LIMIT, windowSeconds: e.SIGN_IN_ACCOUNT_WINDOW_SECONDS },
      hashConcurrency: e.PASSWORD_HASH_CONCURRENCY,
      hashQueueSeconds: e.PASSWORD_HASH_QUEUE_SECONDS,
    },
    passwordHashCost: { N: 2 ** e.PASSWORD_HASH_COST, r: 8, p: 1 },
    trustProxy: e.TRUST_PROXY,
    oidc: {
      issuer: e.OIDC_ISSUER,
      clientId: e.OIDC_CLIENT_ID,
      clientSecret: e.OIDC_CLIENT_SECRET,
      allowInsecure: e.OIDC_ALLOW_INSECURE === 'true',
    },
    google: { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET },
    microsoft: { clientId: e.MICROSOFT_CLIENT_ID, clientSecret: e.MICROSOFT_CLIENT_SECRET, tenant: e.MICROSOFT_TENANT },
    logLevel: e.LOG_LEVEL,
    release: e.RELEASE,
    webDistDir: e.WEB_DIST_DIR ? resolve(e.WEB_DIST_DIR) : join(projectRoot, 'host-web', 'dist'),
    typesense: { url: e.TYPESENSE_URL, apiKey: e.TYPESENSE_API_KEY },
    search: {
      rankCandidates: e.SEARCH_RANK_CANDIDATES,
      exactCountLimit: e.SEARCH_EXACT_COUNT_LIMIT,
      estimateSampleRows: e.SEARCH_ESTIMATE_SAMPLE_ROWS,
    },
    shareLinks: {
      requestsPerToken: e.SHARE_LINK_REQUESTS_PER_TOKEN,
      requestsPerAddress: e.SHARE_LINK_REQUESTS_PER_ADDRESS,
      cacheSeconds: e.SHARE_LINK_CACHE_SECONDS,
    },
    searchConcurrency: {
      perMember: e.SEARCH_CONCURRENCY_PER_MEMBER,
      perWorkspace: e.SEARCH_CONCURRENCY_PER_WORKSPACE,
      queuePerMember: e.SEARCH_QUEUE_PER_MEMBER,
      queueSeconds: e.SEARCH_QUEUE_SECONDS,
    },
    plugins: {
      packages: e.FIELDBOOK_PLUGINS.split(',')
        .map((p) => p.trim())
        .filter(Boolean),
      dir: e.FIELDBOOK_PLUGINS_DIR ? resolve(e.FIELDBOOK_PLUGINS_DIR) : join(projectRoot, 'plugins'),
      maximumExtensions: e.MAXIMUM_EXTENSIONS ?? null,
      env,
      isolation: {
        sandbox: e.FIELDBOOK_PLUGIN_SANDBOX === 'on',
        trusted: e.FIELDBOOK_TRUSTED_PLUGINS.split(',')
          .map((p) => p.trim())
          .filter(Boolean),
      },
      integrity: {
        pinned: e.FIELDBOOK_PLUGIN_INTEGRITY,
        npmCache: e.FIELDBOOK_NPM_CACHE ? resolve(e.FIELDBOOK_NPM_CACHE) : defaultNpmCache(env),
      },
    },
    anonymousIntrospection: e.GRAPHQL_INTROSPECTION ? e.GRAPHQL_INTROSPECTION === 'true' : e.NODE_ENV === 'development',
    channels: {
      maximumChannels: e.MAXIMUM_CHANNELS ?? null,
      maximumChannelsDataPoints: e.MAXIMUM_CHANNELS_DATA_POINTS ?? null,
    },
    ai: {
      // OPENAI_API_KEY alone means OpenAI itself.
      baseUrl: e.OPENAI_BASE_URL ?? (e.OPENAI_API_KEY ? 'https://api.openai.com/v1' : undefined),
      apiKey: e.OPENAI_API_KEY,
      chatModel: e.OPENAI_CHAT_MODEL,
      embeddingModel: e.OPENAI_EMBEDDING_MODEL,
      timeoutMs: e.OPENAI_TIMEOUT_SECONDS * 1000,
      maxRetries: e.OPENAI_MAX_RETRIES,
      retryBaseMs: 500,
    },
    aiSteps: { enabled: e.AI_STEPS === 'on', delaySeconds: e.AI_STEPS_DELAY_SECONDS },
    projectRoot,
    ...overrides,
  };
}

/** A self-hosted install must work with no setup, so the first start writes a random key. */
function readOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  ensureDataFolder(dataDir);
  const key = randomBytes(48).toString('base64url');
  try {
    writeFileSync(file, key, { mode: 0o600 });
  } catch (err) {
    throw diskStartupErrorFrom(err, dataDir) ?? err;
  }
  return key;
}

/** Derives an independent key for one purpose, so one secret never serves two uses. */
export function deriveKey(config: Pick<Config, 'secretKey'>, purpose: string): Buffer {
  return createHmac('sha256', config.secretKey).update(`fieldbook:${purpose}`).digest();
}
