import { createServer } from 'node:net';
import type { Config } from '../core/src/config.ts';
import type { Fieldbook } from '../core/src/server.ts';

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** The value below which `p` percent of the sorted samples lie (nearest rank). */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

/** POSTs one GraphQL operation and returns its data, throwing with the first error's message. */
export async function graphql<T>(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
  workspaceId?: string,
): Promise<T> {
  const res = await fetch(`${url}/api/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(workspaceId ? { 'x-fieldbook-workspace': workspaceId } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T | null; errors?: Array<{ message: string }> };
  if (body.errors?.length || !body.data) throw new Error(body.errors?.[0]?.message ?? `HTTP ${res.status}`);
  return body.data;
}

/**
 * Signs a new person up, confirms their email from the link in `mailbox` (where the bench's
 * Fieldbook delivers mail) and signs them in.
 */
export async function signUpResearcher(
  url: string,
  mailbox: ReadonlyArray<{ to: string; text: string }>,
  prefix: string,
  name = 'Bench Researcher',
): Promise<{ email: string; password: string; token: string }> {
  const email = `${prefix}-${Date.now()}@example.com`;
  const password = 'Bench-password-2026!';
  await graphql(url, 'mutation ($input: SignUpInput!) { signUp(input: $input) { user { id } } }', {
    input: { email, password, name },
  });
  const link = mailbox
    .filter((m) => m.to === email)
    .at(-1)
    ?.text.match(/token=([\w.~-]+)/)?.[1];
  if (link)
    await graphql(
      url,
      'mutation ($token: String!) { confirmEmail(input: { method: EMAIL, token: $token }) { accessToken } }',
      { token: decodeURIComponent(link) },
    );
  const signIn =
    'mutation ($email: String!, $password: String!) { signIn(email: $email, password: $password) { accessToken } }';
  const token = (await graphql<{ signIn: { accessToken: string } }>(url, signIn, { email, password })).signIn
    .accessToken;
  return { email, password, token };
}

/** What a bench part run alone gets: a started Fieldbook, its URL and where its mail lands. */
export interface FieldbookAlone {
  fieldbook: Fieldbook;
  config: Config;
  url: string;
  dataDir: string;
  mailbox: ReadonlyArray<{ to: string; text: string }>;
  log(line: string): void;
}

export interface FieldbookAloneOptions {
  /** Names the fresh data folder (`fieldbook-<label>-…` in the system's temp folder). */
  label: string;
  /** A kept data folder instead of a fresh one: created if missing and never removed. */
  keptDir?: string;
  /** The embedded PostgreSQL's port; a free one when not given. */
  pgPort?: string;
  /** Settings besides the data folder, port, public URL and log level. */
  env?: Record<string, string | undefined>;
  migrate?: boolean;
  discoverPlugins?: boolean;
}

/**
 * Starts a Fieldbook with every module on a data folder of its own, runs `body` against it and
 * closes it again, removing the folder unless it is a kept one. The server and core modules are
 * loaded only here so that importing the bench's shared helpers stays cheap.
 */
export async function withFieldbook<T>(
  options: FieldbookAloneOptions,
  body: (alone: FieldbookAlone) => Promise<T>,
): Promise<T> {
  const { chmodSync, mkdirSync, mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { loadConfig } = await import('../core/src/config.ts');
  const { discoverModules } = await import('../core/src/kernel/discover.ts');
  const { createLogger } = await import('../core/src/logger.ts');
  const { createFieldbook } = await import('../core/src/server.ts');
  const log = (line: string) => process.stderr.write(`${line}\n`);

  const dataDir = options.keptDir ?? mkdtempSync(join(tmpdir(), `fieldbook-${options.label}-`));
  if (options.keptDir) mkdirSync(dataDir, { recursive: true });
  chmodSync(dataDir, 0o755); // the embedded PostgreSQL may run as the `postgres` user
  const mailbox: Array<{ to: string; text: string }> = [];
  try {
    const config = loadConfig({
      FIELDBOOK_DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: options.pgPort ?? String(await freePort()),
      PUBLIC_URL: 'http://localhost:3000',
      LOG_LEVEL: 'warn',
      // A setting given as undefined stays unset, as if it were not given.
      ...Object.fromEntries(Object.entries(options.env ?? {}).filter(([, value]) => value !== undefined)),
    });
    const fieldbook = await createFieldbook({
      config,
      logger: createLogger('warn'),
      modules: await discoverModules(join(import.meta.dirname, '..')),
      mailer: { send: async (m) => void mailbox.push({ to: m.to, text: m.text }) },
      ...(options.migrate === undefined ? {} : { migrate: options.migrate }),
      ...(options.discoverPlugins === undefined ? {} : { discoverPlugins: options.discoverPlugins }),
    });
    try {
      const url = await fieldbook.listen(0, '127.0.0.1');
      return await body({ fieldbook, config, url, dataDir, mailbox, log });
    } finally {
      await fieldbook.close();
    }
  } finally {
    if (!options.keptDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Runs one bench part by itself: a Fieldbook on a fresh data folder with a researcher signed up
 * (email starting `bench-<label>`), printing the lines `body` returns.
 */
export async function runAlone(
  label: string,
  body: (
    alone: FieldbookAlone & { account: { email: string; password: string; token: string }; token: string },
  ) => Promise<readonly string[]>,
  options: Omit<FieldbookAloneOptions, 'label'> & { researcherName?: string } = {},
): Promise<void> {
  const { researcherName, ...fieldbookOptions } = options;
  await withFieldbook({ label: `bench-${label}`, ...fieldbookOptions }, async (alone) => {
    const account = await signUpResearcher(alone.url, alone.mailbox, `bench-${label}`, researcherName);
    for (const line of await body({ ...alone, account, token: account.token })) console.log(line);
  });
}
