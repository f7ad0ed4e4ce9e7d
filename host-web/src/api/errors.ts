/** One error of a GraphQL answer, as the server shapes it (000 §8). */
export interface GraphQLErrorItem {
  message: string;
  humanReadableMessage?: string;
  extensions?: { errorCode?: string; code?: string; humanReadable?: boolean; field?: string };
}

const SOMETHING_WRONG = 'Something went wrong on our side.';
const TRY_AGAIN = 'Please try again in a moment. If it keeps happening, reload the page.';

/** A request the server answered with errors (or with a status it should not have). */
export class GraphQLRequestError extends Error {
  readonly status: number;
  readonly errors: readonly GraphQLErrorItem[];

  constructor(status: number, errors: readonly GraphQLErrorItem[]) {
    super(errors[0]?.message ?? `The server answered with status ${status}.`);
    this.name = 'GraphQLRequestError';
    this.status = status;
    this.errors = errors;
  }

  get code(): string {
    const ext = this.errors[0]?.extensions;
    return ext?.errorCode ?? ext?.code ?? (this.status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'UNKNOWN');
  }

  /** True when the server wrote the message for people, so it may be shown as it is. */
  get humanReadable(): boolean {
    return this.errors[0]?.extensions?.humanReadable === true;
  }

  /** The input field the error is about, if the server named one. */
  get field(): string | undefined {
    return this.errors[0]?.extensions?.field;
  }
}

/** Fieldbook could not be reached at all (offline, DNS, connection refused). */
export class NetworkError extends Error {
  constructor(cause?: unknown) {
    super('Fieldbook can’t be reached right now.', { cause });
    this.name = 'NetworkError';
  }
}

/** The session ended and could not be renewed; the person has to sign in again. */
export class SessionExpiredError extends Error {
  constructor(message = 'Your session has expired. Please sign in again.') {
    super(message);
    this.name = 'SessionExpiredError';
  }
}

export const isUnauthenticated = (err: unknown): boolean =>
  err instanceof SessionExpiredError ||
  (err instanceof GraphQLRequestError && (err.code === 'UNAUTHENTICATED' || err.status === 401));

export const isForbidden = (err: unknown): boolean => err instanceof GraphQLRequestError && err.code === 'FORBIDDEN';

/** The workspace the app addresses does not exist (a 404 from the GraphQL path, 000 §8). */
export const isWorkspaceNotFound = (err: unknown): boolean =>
  err instanceof GraphQLRequestError && err.status === 404 && err.code === 'NOT_FOUND';

/** What to tell a person about an error: what happened, and what they can do next. */
export interface ErrorDescription {
  title: string;
  message: string;
  next: string | null;
}

export function describeError(err: unknown): ErrorDescription {
  if (err instanceof NetworkError) {
    return {
      title: 'Connection problem',
      message: err.message,
      next: 'Check your internet connection, then try again.',
    };
  }
  if (err instanceof SessionExpiredError) {
    return { title: 'Signed out', message: err.message, next: null };
  }
  if (err instanceof GraphQLRequestError) {
    const item = err.errors[0];
    const readable = item?.humanReadableMessage ?? (err.humanReadable ? item?.message : undefined);
    if (readable) return { title: titleFor(err.code), message: readable, next: nextFor(err.code) };
    if (err.code === 'FORBIDDEN') {
      return {
        title: 'Not allowed',
        message: 'You do not have permission to do that.',
        next: 'Ask a workspace admin for access.',
      };
    }
    if (err.code === 'UNAUTHENTICATED')
      return { title: 'Signed out', message: 'Please sign in to continue.', next: null };
    return { title: 'Something went wrong', message: SOMETHING_WRONG, next: TRY_AGAIN };
  }
  return { title: 'Something went wrong', message: SOMETHING_WRONG, next: TRY_AGAIN };
}

function titleFor(code: string): string {
  switch (code) {
    case 'BAD_USER_INPUT':
      return 'Please check your input';
    case 'FORBIDDEN':
      return 'Not allowed';
    case 'NOT_FOUND':
      return 'Not found';
    case 'TOO_MANY_REQUESTS':
      return 'Too many attempts';
    case 'UNAUTHENTICATED':
      return 'Signed out';
    case 'INTERNAL_SERVER_ERROR':
      return 'Something went wrong';
    default:
      return 'That did not work';
  }
}

function nextFor(code: string): string | null {
  switch (code) {
    case 'TOO_MANY_REQUESTS':
      return 'Wait a minute, then try again.';
    case 'FORBIDDEN':
      return 'If you think you should have access, ask a workspace admin.';
    case 'INTERNAL_SERVER_ERROR':
      return TRY_AGAIN;
    default:
      return null;
  }
}
