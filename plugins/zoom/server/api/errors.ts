/**
 * A failed Zoom call. `code` is Zoom's own: the numeric API code as text (`124` invalid token,
 * `3301` no such recording) or the OAuth `error` (`invalid_grant`, `invalid_client`).
 * The message names the operation and the code only, never a token or an authorization code.
 */
export class ZoomApiError extends Error {
  readonly code: string;
  readonly status: number;
  /** What was being done, e.g. `oauth.token` or `GET /users/me`. */
  readonly operation: string;

  constructor(operation: string, code: string, status: number) {
    super(`Zoom ${operation} failed: ${code} (HTTP ${status})`);
    this.name = 'ZoomApiError';
    this.operation = operation;
    this.code = code;
    this.status = status;
  }
}
