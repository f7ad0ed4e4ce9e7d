/** What the research screens tell people about a failed call: what happened, and what to do next. */
export interface ErrorText {
  title: string;
  message: string;
  next: string | null;
}

interface ErrorItem {
  message?: string;
  humanReadableMessage?: string;
  extensions?: { errorCode?: string; code?: string; humanReadable?: boolean; field?: string };
}

const TRY_AGAIN = 'Please try again in a moment. If it keeps happening, reload the page.';

/** The host's GraphQL client throws errors carrying the server's error list; others are network or session errors. */
function itemsOf(err: unknown): ErrorItem[] | null {
  if (err && typeof err === 'object' && 'errors' in err && Array.isArray((err as { errors: unknown }).errors))
    return (err as { errors: ErrorItem[] }).errors;
  return null;
}

export function errorCode(err: unknown): string | undefined {
  const ext = itemsOf(err)?.[0]?.extensions;
  return ext?.errorCode ?? ext?.code;
}

export const isNotFound = (err: unknown): boolean => errorCode(err) === 'NOT_FOUND';

export function describeError(err: unknown): ErrorText {
  const items = itemsOf(err);
  if (!items) {
    const name = err instanceof Error ? err.name : '';
    if (name === 'NetworkError')
      return {
        title: 'Connection problem',
        message: 'Fieldbook can’t be reached right now.',
        next: 'Check your internet connection, then try again.',
      };
    if (name === 'SessionExpiredError')
      return { title: 'Signed out', message: 'Your session has expired. Please sign in again.', next: null };
    return { title: 'Something went wrong', message: 'Something went wrong on our side.', next: TRY_AGAIN };
  }
  const item = items[0];
  const code = errorCode(err);
  const readable = item?.humanReadableMessage ?? (item?.extensions?.humanReadable ? item.message : undefined);
  if (readable) {
    const title =
      code === 'BAD_USER_INPUT'
        ? 'Please check your input'
        : code === 'FORBIDDEN'
          ? 'Not allowed'
          : code === 'NOT_FOUND'
            ? 'Not found'
            : 'That did not work';
    return {
      title,
      message: readable,
      next: code === 'FORBIDDEN' ? 'If you think you should have access, ask a workspace admin.' : null,
    };
  }
  if (code === 'FORBIDDEN')
    return {
      title: 'Not allowed',
      message: 'You do not have permission to do that.',
      next: 'Ask a workspace admin for access.',
    };
  if (code === 'NOT_FOUND')
    return { title: 'Not found', message: 'It may have been deleted, or you may not have access to it.', next: null };
  return { title: 'Something went wrong', message: 'Something went wrong on our side.', next: TRY_AGAIN };
}

/** One line for a toast or a form error. */
export function errorLine(err: unknown): string {
  const d = describeError(err);
  return d.next ? `${d.message} ${d.next}` : d.message;
}
