import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import type { Knex } from 'knex';
import type Koa from 'koa';
import { MemoryCache } from '../cache/memory-cache.ts';
import { deriveKey, type Config } from '../config.ts';
import { EVERYTHING, type Invalidations } from '../db/invalidations.ts';
import { unauthenticated } from '../errors/app-error.ts';
import { randomSecret, sha256Hex } from './secrets.ts';

/** The refresh token cookie of the web app; only the API path ever receives it. */
export const REFRESH_COOKIE = 'fb_refresh';
const REFRESH_COOKIE_PATH = '/api';

export const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';
const SESSION_ENDED = 'Your session has ended. Please sign in again.';
const SESSION_INVALID = 'Your sign-in token is not valid. Please sign in again.';

export interface AuthTokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: Date;
}

export interface AccessClaims {
  userId: string;
  sessionId: string;
  email: string;
}

interface LiveSession {
  userId: string;
  email: string;
  name: string;
  expiresAt: number;
}

const SESSION_TOPIC = 'session';
const USER_TOPIC = 'user';

/**
 * Sessions: a short-lived signed access token (JWT, HS256) naming its session, and a long-lived
 * random refresh token stored only as a hash. Revoking the session row ends both at once.
 *
 * Every signed-in request checks its session is still open. Open sessions are kept in memory for
 * a short while so that check costs no database round trip; revoking one, or changing its person,
 * evicts it in every process at once (see `Invalidations`).
 */
export class SessionStore {
  private readonly key: Buffer;
  private readonly issuer: string;
  private readonly live = new MemoryCache<LiveSession>(60_000, 50_000);
  /** Access tokens whose signature was checked; a token never changes, so no eviction is needed. */
  private readonly verified = new MemoryCache<{ claims: AccessClaims; expiresAt: number }>(60_000, 50_000);
  /** Counts evictions, so a read that raced with one does not put the old row back. */
  private evictions = 0;
  private lastRetiredCleanup = 0;

  constructor(
    private readonly db: Knex,
    private readonly config: Pick<
      Config,
      'secretKey' | 'accessTokenTtlSeconds' | 'refreshTokenTtlSeconds' | 'publicUrl'
    >,
    private readonly invalidations: Invalidations,
  ) {
    this.key = deriveKey(config, 'access-token');
    this.issuer = config.publicUrl.origin;
    invalidations.subscribe(SESSION_TOPIC, (id) => {
      this.evictions++;
      if (id === EVERYTHING) this.live.clear();
      else this.live.delete(id);
    });
    invalidations.subscribe(USER_TOPIC, (userId) => {
      this.evictions++;
      if (userId === EVERYTHING) this.live.clear();
      else this.live.deleteWhere((s) => s.userId === userId);
    });
  }

  async open(user: { id: string; email: string }, userAgent?: string): Promise<AuthTokens> {
    const refreshToken = randomSecret();
    const [row] = await this.db('sessions')
      .insert({
        user_id: user.id,
        refresh_token_hash: sha256Hex(refreshToken),
        user_agent: userAgent?.slice(0, 500) ?? null,
        expires_at: new Date(Date.now() + this.config.refreshTokenTtlSeconds * 1000),
      })
      .returning<Array<{ id: string }>>('id');
    return this.tokensFor({ userId: user.id, sessionId: row!.id, email: user.email }, refreshToken);
  }

  /**
   * Swaps a refresh token for a new one (the old one stops working) and a new access token for
   * the same session. Returns the user id with the tokens.
   *
   * The replaced token's hash is kept: a refresh token used twice means two parties hold it (one
   * of them copied it), and nothing tells which is the person. So a rotated-out token presented
   * again ends the whole session, and both must sign in again (OAuth 2.0 Security BCP, refresh
   * token rotation).
   */
  async rotate(refreshToken: string): Promise<{ userId: string; tokens: AuthTokens }> {
    this.forgetRetiredNowAndThen();
    const next = randomSecret();
    const presented = sha256Hex(refreshToken);
    // Token hashes are out of this role's reach: session_rotate (core/src/db/privileges.ts) swaps them.
    const rows = await this.db.raw<{ rows: Array<{ id: string; user_id: string; email: string }> }>(
      'select r.id, r.user_id, u.email from session_rotate(?, ?, ?) r join users u on u.id = r.user_id',
      [presented, sha256Hex(next), new Date(Date.now() + this.config.refreshTokenTtlSeconds * 1000)],
    );
    const row = rows.rows[0];
    if (!row) {
      await this.revokeOnReuse(presented);
      throw unauthenticated(SESSION_EXPIRED);
    }
    return {
      userId: row.user_id,
      tokens: await this.tokensFor({ userId: row.user_id, sessionId: row.id, email: row.email }, next),
    };
  }

  /** A rotated-out refresh token came back: its session ends, in every process. */
  private async revokeOnReuse(tokenHash: string): Promise<void> {
    const { rows } = await this.db.raw<{ rows: Array<{ id: string }> }>('select id from session_revoke_reused(?)', [
      tokenHash,
    ]);
    for (const row of rows) await this.invalidations.publish(SESSION_TOPIC, row.id);
  }

  /**
   * Retired token hashes matter only while their session could still be refreshed: those of
   * ended sessions are deleted, by whichever process rotates next, at most once an hour each.
   */
  private forgetRetiredNowAndThen(): void {
    const now = Date.now();
    if (now - this.lastRetiredCleanup < 3_600_000) return;
    this.lastRetiredCleanup = now;
    this.db
      .raw(
        `delete from retired_refresh_tokens r using sessions s
         where s.id = r.session_id and (s.revoked_at is not null or s.expires_at <= now())`,
      )
      .catch(() => {
        // Tried again in an hour; the rows are harmless meanwhile.
      });
  }

  async revoke(sessionId: string): Promise<void> {
    await this.db('sessions').where({ id: sessionId }).whereNull('revoked_at').update({ revoked_at: this.db.fn.now() });
    await this.invalidations.publish(SESSION_TOPIC, sessionId);
  }

  async revokeByRefreshToken(refreshToken: string): Promise<void> {
    const { rows } = await this.db.raw<{ rows: Array<{ id: string }> }>('select id from session_revoke_by_refresh(?)', [
      sha256Hex(refreshToken),
    ]);
    for (const row of rows) await this.invalidations.publish(SESSION_TOPIC, row.id);
  }

  /** Ends every session of a person, e.g. after a password reset; `except` keeps the current one. */
  async revokeAllOf(userId: string, except?: string | null): Promise<void> {
    const q = this.db('sessions').where({ user_id: userId }).whereNull('revoked_at');
    if (except) q.whereNot({ id: except });
    await q.update({ revoked_at: this.db.fn.now() });
    await this.personChanged(userId);
  }

  /** A person's name or email changed: their sessions are looked up afresh. */
  async personChanged(userId: string, trx?: Knex.Transaction): Promise<void> {
    await this.invalidations.publish(USER_TOPIC, userId, trx);
  }

  /** Verifies an access token's signature and expiry; the caller checks the session row. */
  async verifyAccessToken(token: string): Promise<AccessClaims> {
    // The same token arrives with every request of a page; its signature need be checked once.
    const verified = this.verified.get(token);
    if (verified) {
      if (verified.expiresAt > Date.now()) return verified.claims;
      throw unauthenticated(SESSION_EXPIRED);
    }
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], issuer: this.issuer });
      if (
        typeof payload.sub !== 'string' ||
        typeof payload.sid !== 'string' ||
        typeof payload.email !== 'string' ||
        typeof payload.exp !== 'number'
      ) {
        throw unauthenticated(SESSION_INVALID);
      }
      const claims: AccessClaims = { userId: payload.sub, sessionId: payload.sid, email: payload.email };
      this.verified.set(token, { claims, expiresAt: payload.exp * 1000 });
      return claims;
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw unauthenticated(SESSION_EXPIRED);
      if (err instanceof joseErrors.JOSEError) throw unauthenticated(SESSION_INVALID);
      throw err;
    }
  }

  /** The one check per request: is the session still open, and who is its person. */
  async liveSession(claims: AccessClaims): Promise<{ email: string; name: string }> {
    const cached = this.live.get(claims.sessionId);
    if (cached && cached.userId === claims.userId && cached.expiresAt > Date.now()) return cached;
    const evictionsBefore = this.evictions;
    const row = await this.db('sessions as s')
      .join('users as u', 'u.id', 's.user_id')
      .where('s.id', claims.sessionId)
      .select<{ user_id: string; revoked_at: Date | null; expires_at: Date; email: string; name: string }>(
        's.user_id',
        's.revoked_at',
        's.expires_at',
        'u.email',
        'u.name',
      )
      .first();
    if (!row || row.user_id !== claims.userId || row.revoked_at) throw unauthenticated(SESSION_ENDED);
    if (row.expires_at.getTime() <= Date.now()) throw unauthenticated(SESSION_EXPIRED);
    const session: LiveSession = {
      userId: row.user_id,
      email: row.email,
      name: row.name,
      expiresAt: row.expires_at.getTime(),
    };
    if (this.invalidations.listening() && this.evictions === evictionsBefore) this.live.set(claims.sessionId, session);
    return session;
  }

  private async tokensFor(claims: AccessClaims, refreshToken: string): Promise<AuthTokens> {
    const expiresAt = new Date(Date.now() + this.config.accessTokenTtlSeconds * 1000);
    const accessToken = await new SignJWT({ sid: claims.sessionId, email: claims.email })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(this.issuer)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
    return { accessToken, refreshToken, expiresAt };
  }
}

/** Hands the refresh token to the web app as an httpOnly cookie that scripts cannot read. */
export function setRefreshCookie(koa: Koa.Context, tokens: AuthTokens, ttlSeconds: number): void {
  koa.cookies.set(REFRESH_COOKIE, tokens.refreshToken, {
    httpOnly: true,
    sameSite: 'lax',
    path: REFRESH_COOKIE_PATH,
    secure: koa.secure,
    maxAge: ttlSeconds * 1000,
    overwrite: true,
  });
}

export function clearRefreshCookie(koa: Koa.Context): void {
  koa.cookies.set(REFRESH_COOKIE, null, {
    httpOnly: true,
    sameSite: 'lax',
    path: REFRESH_COOKIE_PATH,
    secure: koa.secure,
    overwrite: true,
  });
}

export function readRefreshCookie(koa: Koa.Context): string | null {
  return koa.cookies.get(REFRESH_COOKIE) || null;
}
