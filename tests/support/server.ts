import { inject } from 'vitest';
import { loadConfig, type Config } from '../../core/src/config.ts';
import { createLogger } from '../../core/src/logger.ts';
import { createFieldbook, type Fieldbook, type FieldbookOptions } from '../../core/src/server.ts';
import { createTestDatabase } from './database.ts';
import { TEST_PASSWORD_HASH_COST } from './password-cost.ts';

export interface TestServer {
  url: string;
  fieldbook: Fieldbook;
  /** POSTs a GraphQL operation; `token` and `workspace` become the usual headers. */
  gql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    opts?: { token?: string; workspace?: string; headers?: Record<string, string> },
  ): Promise<GqlResult<T>>;
  close(): Promise<void>;
}

export interface GqlResult<T> {
  status: number;
  data: T | null;
  errors:
    | Array<{ message: string; extensions?: { errorCode?: string; humanReadable?: boolean; field?: string } }>
    | undefined;
}

/**
 * Starts a real Fieldbook on port 0 against a fresh database. Pass config overrides (SMTP, OIDC)
 * and modules as a test needs them.
 */
export async function startTestServer(
  overrides: Partial<Config> = {},
  opts: Omit<FieldbookOptions, 'config'> = {},
): Promise<TestServer> {
  const databaseUrl = await createTestDatabase();
  const config = loadConfig(
    // The AI steps would act on every note a test writes, some time later: a test that wants them says so (`aiSteps`).
    // Passwords are hashed at TEST_PASSWORD_HASH_COST: a test that measures hashing asks for the real cost (`passwordHashCost`).
    {
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'http://localhost:3000',
      AI_STEPS: 'off',
      PASSWORD_HASH_COST: String(TEST_PASSWORD_HASH_COST),
      // `warn` or `throw` to find work that asks the pool for a second connection while it holds one.
      DATABASE_NESTED_ACQUIRE_CHECK: process.env.DATABASE_NESTED_ACQUIRE_CHECK ?? 'off',
    },
    { secretKey: inject('secretKey'), databaseUrl, ...overrides },
  );
  const fieldbook = await createFieldbook({
    config,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    migrate: false,
    jobs: { superviseIntervalSeconds: 1, pollingIntervalSeconds: 0.5 },
    ...opts,
  });
  const url = await fieldbook.listen(0, '127.0.0.1');
  return {
    url,
    fieldbook,
    async gql(query, variables, o = {}) {
      const res = await fetch(`${url}/api/graphql`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/graphql-response+json',
          ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
          ...(o.workspace ? { 'x-fieldbook-workspace': o.workspace } : {}),
          ...o.headers,
        },
        body: JSON.stringify({ query, variables }),
      });
      const json = (await res.json()) as { data?: unknown; errors?: GqlResult<unknown>['errors'] };
      return { status: res.status, data: (json.data ?? null) as never, errors: json.errors };
    },
    close: () => fieldbook.close(),
  };
}
