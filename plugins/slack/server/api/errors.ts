/**
 * A failed Slack Web API call. Slack answers most failures with HTTP 200 and `{ ok: false, error }`;
 * `code` is that `error` string (`invalid_auth`, `channel_not_found`, `ratelimited`, ...).
 * The message names the method and the code only, never a token.
 */
export class SlackApiError extends Error {
  /** Slack's error string, or `http_<status>` when the answer carried none. */
  readonly code: string;
  /** The HTTP status of Slack's answer (200 for most Slack errors). */
  readonly status: number;
  /** The Web API method that failed, e.g. `chat.postMessage`. */
  readonly method: string;
  /** Seconds Slack asked to wait before retrying (HTTP 429 `Retry-After`), when it said. */
  readonly retryAfterSeconds: number | undefined;

  constructor(method: string, code: string, status: number, retryAfterSeconds?: number) {
    super(`Slack ${method} failed: ${code}`);
    this.name = 'SlackApiError';
    this.method = method;
    this.code = code;
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
