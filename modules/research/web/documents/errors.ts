/**
 * How to tell people what went wrong. The host's client throws errors carrying the server's
 * GraphQL errors; the server marks the messages written for people as human-readable.
 */
interface ErrorItem {
  message?: string;
  humanReadableMessage?: string;
  extensions?: { errorCode?: string; code?: string; humanReadable?: boolean; field?: string };
}

const itemOf = (err: unknown): ErrorItem | null => {
  const errors = (err as { errors?: unknown } | null)?.errors;
  return Array.isArray(errors) && errors.length ? (errors[0] as ErrorItem) : null;
};

/** The error code the server gave (NOT_FOUND, FORBIDDEN, BAD_USER_INPUT...), if any. */
export function errorCode(err: unknown): string | null {
  const item = itemOf(err);
  return item?.extensions?.errorCode ?? item?.extensions?.code ?? null;
}

export function errorMessage(err: unknown): string {
  const item = itemOf(err);
  const readable = item?.humanReadableMessage ?? (item?.extensions?.humanReadable ? item.message : undefined);
  if (readable) return readable;
  const code = errorCode(err);
  if (code === 'FORBIDDEN')
    return 'You do not have permission to do that. If you think you should, ask a workspace admin.';
  if (code === 'NOT_FOUND') return 'It no longer exists, or you do not have access to it.';
  if (err instanceof Error && err.name === 'NetworkError')
    return 'Fieldbook can’t be reached right now. Check your connection, then try again.';
  return 'Something went wrong on our side. Please try again in a moment.';
}
