import type { RichDoc } from '../api.ts';

/**
 * Public links are opened signed out: the request carries the link's token in the
 * x-share-token header and nothing else (no bearer token, no cookies, no workspace), so it
 * goes straight to the API rather than through the app's signed-in client.
 */
export interface PublicHighlight {
  __typename: 'PublicHighlight';
  id: string;
  text: string;
  startOffset: number;
  endOffset: number;
  color: string | null;
  noteTitle: string | null;
}

export interface PublicInsight {
  __typename: 'PublicInsight';
  id: string;
  title: string;
  content: RichDoc | null;
  publishedAt: string | null;
  highlights: PublicHighlight[];
}

export interface PublicNote {
  __typename: 'PublicNote';
  id: string;
  title: string;
  content: RichDoc | null;
  contentText: string;
  highlights: PublicHighlight[];
}

export interface PublicProject {
  __typename: 'PublicProject';
  id: string;
  title: string;
  readme: RichDoc | null;
  insights: PublicInsight[];
}

export interface PublicProjectReadme {
  __typename: 'PublicProjectReadme';
  id: string;
  title: string;
  readme: RichDoc | null;
}

/** A shared chart or dashboard: drawn by the dashboards module's public pages. */
export interface PublicChartOrDashboard {
  __typename: 'PublicProjectChart' | 'PublicDashboard';
  title?: undefined;
}

export type PublicObject =
  | PublicHighlight
  | PublicInsight
  | PublicNote
  | PublicProject
  | PublicProjectReadme
  | PublicChartOrDashboard;

export interface SharedObject {
  objectType: string;
  sharedAt: string;
  object: PublicObject;
}

const HIGHLIGHT = '__typename id text startOffset endOffset color noteTitle';
const INSIGHT = `__typename id title content publishedAt highlights { ${HIGHLIGHT} }`;
export const SHARED_OBJECT = `query SharedObject {
  sharedObject {
    objectType sharedAt
    object {
      __typename
      ... on PublicInsight { ${INSIGHT} }
      ... on PublicNote { id title content contentText highlights { ${HIGHLIGHT} } }
      ... on PublicHighlight { ${HIGHLIGHT} }
      ... on PublicProject { id title readme insights { ${INSIGHT} } }
      ... on PublicProjectReadme { id title readme }
    }
  }
}`;

/** A link that does not open: the server's words when it gave them, and whether it is gone for good. */
export class SharedObjectError extends Error {
  constructor(
    message: string,
    readonly gone: boolean,
  ) {
    super(message);
    this.name = 'SharedObjectError';
  }
}

/**
 * Runs one query of a public link: the token in the x-share-token header, nothing else (no bearer
 * token, no cookies), and `field` of its answer. Shared charts and dashboards use it too.
 */
export async function fetchPublic<T>(token: string, query: string, field: string, signal?: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await fetch('/api/graphql', {
      method: 'POST',
      credentials: 'omit',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
        'x-share-token': token,
      },
      body: JSON.stringify({ query, variables: {} }),
      signal: signal ?? null,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new SharedObjectError('Fieldbook can’t be reached right now. Check your connection, then try again.', false);
  }
  const body = (await res.json().catch(() => null)) as {
    data?: Record<string, T | undefined> | null;
    errors?: Array<{ message: string; extensions?: { errorCode?: string; humanReadable?: boolean } }>;
  } | null;
  const error = body?.errors?.[0];
  const value = body?.data?.[field];
  if (error || !value) {
    const code = error?.extensions?.errorCode;
    const gone = code === 'NOT_FOUND' || code === 'BAD_USER_INPUT';
    const message = error?.extensions?.humanReadable
      ? error.message
      : gone
        ? 'This link does not exist or is no longer shared. Ask whoever sent it for a new one.'
        : 'Something went wrong on our side. Please try again in a moment.';
    throw new SharedObjectError(message, gone);
  }
  return value;
}

export function fetchSharedObject(token: string, signal?: AbortSignal): Promise<SharedObject> {
  return fetchPublic<SharedObject>(token, SHARED_OBJECT, 'sharedObject', signal);
}
