import { createHash } from 'node:crypto';
import type Koa from 'koa';
import type { Knex } from 'knex';
import { AppError } from '../errors/app-error.ts';
import { SHARE_TOKEN_HEADER } from '../http/request-context.ts';
import { AttemptCounters } from '../identity/sign-in-limits/attempt-counters.ts';
import { clientAddress } from '../identity/sign-in-limits/client-address.ts';
import { inWords } from '../identity/sign-in-limits/too-many-requests.ts';

export interface ShareTrafficSettings {
  /** Requests per minute with one link's token, whoever sends them. */
  requestsPerToken: number;
  /** Requests per minute with any link's token from one client address. */
  requestsPerAddress: number;
  /** Reverse proxies in front (TRUST_PROXY), to find the client's address. */
  trustProxy: number;
}

const WINDOW_SECONDS = 60;

/** The counters' keys; the token is hashed so the counters never hold a working link. */
export const shareTokenCounter = (token: string) =>
  `share-token:${createHash('sha256').update(token).digest('hex').slice(0, 32)}`;
export const shareAddressCounter = (address: string) => `share-address:${address}`;

/**
 * Limits anonymous traffic of public links: every request that carries a share token counts
 * against that token (a link posted somewhere busy) and against the client's address (one client
 * walking many links, or guessing tokens). Over either, the answer is 429 with Retry-After, before
 * any of the link's work is done. Counted in the database like sign-in attempts, so every web
 * process shares the allowance.
 */
export function shareTrafficLimit(db: Knex, settings: ShareTrafficSettings): Koa.Middleware {
  const counters = new AttemptCounters(db);
  return async (koa, next) => {
    const token = koa.get(SHARE_TOKEN_HEADER);
    if (!token || koa.get('authorization')) return next();
    const tokenKey = shareTokenCounter(token);
    const refusal = await counters.take([
      { key: tokenKey, allowance: { limit: settings.requestsPerToken, windowSeconds: WINDOW_SECONDS } },
      {
        key: shareAddressCounter(clientAddress(koa, settings.trustProxy)),
        allowance: { limit: settings.requestsPerAddress, windowSeconds: WINDOW_SECONDS },
      },
    ]);
    if (!refusal) return next();
    const seconds = refusal.retryAfterSeconds;
    koa.set('retry-after', String(seconds));
    throw new AppError(
      'TOO_MANY_REQUESTS',
      refusal.keys.includes(tokenKey)
        ? `This shared link is being opened too often (at most ${settings.requestsPerToken} times a minute). Try again ${inWords(seconds)}.`
        : `Too many requests to shared links from your network (at most ${settings.requestsPerAddress} a minute). Try again ${inWords(seconds)}.`,
      { retryAfterSeconds: seconds },
    );
  };
}
