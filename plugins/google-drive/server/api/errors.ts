/**
 * A failed Google call. `code` is the first `errors[].reason` of Drive's error body (`notFound`,
 * `authError`, `fileNotDownloadable`, ...) or the OAuth `error` (`invalid_grant`).
 * The message names the operation and the code only, never a token.
 */
export class DriveApiError extends Error {
  readonly code: string;
  readonly status: number;
  /** What was being done, e.g. `files.get` or `oauth.token`. */
  readonly operation: string;

  constructor(operation: string, code: string, status: number) {
    super(`Google Drive ${operation} failed: ${code} (HTTP ${status})`);
    this.name = 'DriveApiError';
    this.operation = operation;
    this.code = code;
    this.status = status;
  }
}

/** A link that matches none of the known Google Drive and Docs URL patterns (001 §5). */
export class DriveUrlError extends Error {
  constructor() {
    super('Not a Google Drive URL');
    this.name = 'DriveUrlError';
  }
}
