import {
  GraphQLRequestError,
  NetworkError,
  SessionExpiredError,
  isUnauthenticated,
  type GraphQLErrorItem,
} from './errors.ts';
import { operationKind, retryDelayMs, shouldRetry } from './retry.ts';

export const GRAPHQL_PATH = '/api/graphql';
export const WORKSPACE_HEADER = 'x-fieldbook-workspace';
export const RELEASE_HEADER = 'x-fieldbook-release';

/** How the client gets and renews the session's access token. */
export interface SessionAuth {
  /** The current access token, renewed first when about to expire; null when signed out. */
  accessToken(): Promise<string | null>;
  /** Renews the session after the server refused the token; the new token, or null if it ended. */
  renew(): Promise<string | null>;
  /** Called once the session is over, so the app can ask the person to sign in again. */
  ended(message: string): void;
}

export interface GraphQLClientOptions {
  endpoint?: string;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  auth?: SessionAuth;
  /** The workspace to address (id or subdomain), sent as the workspace header. */
  workspace?: () => string | null;
  /** Reports each HTTP outcome to the connection monitor: true for an answer, false for a failure. */
  onHttpResult?: (ok: boolean, detail: { status: number | null }) => void;
  /** Reports the release the server runs, from its release header. */
  onRelease?: (release: string) => void;
}

export interface RequestOptions {
  /** Send the workspace header (default true). Sign-in calls that must work anywhere turn it off. */
  workspace?: boolean;
  /** Send the access token (default true). */
  auth?: boolean;
  signal?: AbortSignal;
}

export interface GraphQLClient {
  request<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    options?: RequestOptions,
  ): Promise<T>;
  /** The release last seen from the server, sent back with every request. */
  readonly release: string | null;
}

interface Answer {
  status: number;
  body: { data?: unknown; errors?: GraphQLErrorItem[] } | null;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The app's GraphQL client (000 §7): POST /api/graphql with credentials, the bearer token, the
 * workspace and release headers; queries failing with 5xx are retried, mutations never. A refused
 * token is renewed once and the request sent again; if renewing fails, the session has ended.
 */
export function createGraphQLClient(options: GraphQLClientOptions = {}): GraphQLClient {
  const endpoint = options.endpoint ?? GRAPHQL_PATH;
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  let release: string | null = null;

  async function send(
    query: string,
    variables: Record<string, unknown> | undefined,
    token: string | null,
    opts: RequestOptions,
  ): Promise<Answer> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
    };
    if (token) headers.authorization = `Bearer ${token}`;
    const workspace = opts.workspace === false ? null : options.workspace?.();
    if (workspace) headers[WORKSPACE_HEADER] = workspace;
    if (release) headers[RELEASE_HEADER] = release;
    let res: Response;
    try {
      res = await doFetch(endpoint, {
        method: 'POST',
        headers,
        credentials: 'include',
        body: JSON.stringify({ query, variables: variables ?? {} }),
        signal: opts.signal ?? null,
      });
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      options.onHttpResult?.(false, { status: null });
      throw new NetworkError(err);
    }
    options.onHttpResult?.(res.status < 500, { status: res.status });
    const seen = res.headers.get(RELEASE_HEADER);
    if (seen) {
      release ??= seen;
      options.onRelease?.(seen);
    }
    let body: Answer['body'] = null;
    try {
      body = (await res.json()) as Answer['body'];
    } catch {
      body = null;
    }
    return { status: res.status, body };
  }

  async function request<T>(query: string, variables?: Record<string, unknown>, opts: RequestOptions = {}): Promise<T> {
    const kind = operationKind(query);
    const useAuth = opts.auth !== false && options.auth !== undefined;
    let token = useAuth ? await options.auth!.accessToken() : null;
    let renewed = false;
    for (let attempt = 1; ; attempt++) {
      const answer = await send(query, variables, token, opts);
      if (answer.status >= 500) {
        if (shouldRetry(kind, answer.status, attempt)) {
          await sleep(retryDelayMs(attempt, random));
          continue;
        }
        throw new GraphQLRequestError(answer.status, answer.body?.errors ?? []);
      }
      const errors = answer.body?.errors ?? [];
      if (errors.length || !answer.body || answer.status >= 400) {
        const error = new GraphQLRequestError(answer.status, errors);
        // Only a token the server refused calls for a renewal; a wrong password is UNAUTHENTICATED too.
        if (token && isUnauthenticated(error)) {
          if (!renewed) {
            renewed = true;
            token = await options.auth!.renew();
            if (token) {
              attempt--; // the renewal is not one of the retries
              continue;
            }
          }
          options.auth!.ended(error.message);
          throw new SessionExpiredError(error.humanReadable ? error.message : undefined);
        }
        throw error;
      }
      return answer.body.data as T;
    }
  }

  return {
    request,
    get release() {
      return release;
    },
  };
}
