/** What a verifier sees of an inbound request: header names lower-cased, the body exactly as received. */
export interface WebhookRequest {
  /** Request headers keyed by lower-cased name, as Node and the Fetch API already give them. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The body bytes before any JSON or form parsing; re-serialised JSON would no longer match the signature. */
  rawBody: Buffer;
}

/**
 * The outcome of verifying a webhook. `reason` says why a request was refused; it is meant for logs
 * and must not be echoed to the caller, who should only see a generic 401.
 */
export type WebhookVerdict = { ok: true } | { ok: false; reason: string };

/** Tuning for the replay window; the defaults suit production. */
export interface VerifyOptions {
  /** The current time in milliseconds since the epoch; defaults to `Date.now`. Tests pass a fixed clock. */
  now?: () => number;
  /** How far, in seconds, a request's timestamp may be from now in either direction. Defaults to 300. */
  toleranceSeconds?: number;
}
