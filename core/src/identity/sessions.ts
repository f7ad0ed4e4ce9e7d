import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import type { Knex } from 'knex';
import type Koa from 'koa';
import { deriveKey, type Config } from '../config.ts';
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

/**
 * Sessions: a short-lived signed access token (JWT, HS256) naming its session, and a long-lived
 * random refresh token stored only as a hash. Revoking the session row ends both at once.
 */
export class SessionStore {
  private readonly key: Buffer;
  private readonly issuer: string;

  constructor(
    private readonly db: Knex,
    private readonly config: Pick<Config, 'secretKey' | 'accessTokenTtlSeconds' | 'refreshTokenTtlSeconds' | 'publicUrl'>,
  ) {
    this.key = deriveKey(config, 'access-token');
    this.issuer = config.publicUrl.origin;
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
   */
  async rotate(refreshToken: string): Promise<{ userId: string; tokens: AuthTokens }> {
    const next = randomSecret();
    const rows = await this.db.raw<{ rows: Array<{ id: string; user_id: string; email: string }> }>(
      `update sessions s set refresh_token_hash = ?, last_used_at = now(), updated_at = now(), expires_at = ?
       from users u
       where s.refresh_token_hash = ? and s.revoked_at is null and s.expires_at > now() and u.id = s.user_id
       returning s.id, s.user_id, u.email`,
      [sha256Hex(next), new Date(Date.now() + this.config.refreshTokenTtlSeconds * 1000), sha256Hex(refreshToken)],
    );
    const row = rows.rows[0];
    if (!row) throw unauthenticated(SESSION_EXPIRED);
    return { userId: row.user_id, tokens: await this.tokensFor({ userId: row.user_id, sessionId: row.id, email: row.email }, next) };
  }

  async revoke(sessionId: string): Promise<void> {
    await this.db('sessions').where({ id: sessionId }).whereNull('revoked_at').update({ revoked_at: this.db.fn.now() });
  }

  async revokeByRefreshToken(refreshToken: string): Promise<void> {
    await this.db('sessions').where({ refresh_token_hash: sha256Hex(refreshToken) }).whereNull('revoked_at').update({ revoked_at: this.db.fn.now() });
  }

  /** Ends every session of a person, e.g. after a password reset; `except` keeps the current one. */
  async revokeAllOf(userId: string, except?: string | null): Promise<void> {
    const q = this.db('sessions').where({ user_id: userId }).whereNull('revoked_at');
    if (except) q.whereNot({ id: except });
    await q.update({ revoked_at: this.db.fn.now() });
  }

  /** Verifies an access token's signature and expiry; the caller checks the session row. */
  async verifyAccessToken(token: string): Promise<AccessClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], issuer: this.issuer });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.email !== 'string') {
        throw unauthenticated(SESSION_INVALID);
      }
      return { userId: payload.sub, sessionId: payload.sid, email: payload.email };
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw unauthenticated(SESSION_EXPIRED);
      if (err instanceof joseErrors.JOSEError) throw unauthenticated(SESSION_INVALID);
      throw err;
    }
  }

  /** The one lookup per request: is the session still open, and who is its person. */
  async liveSession(claims: AccessClaims): Promise<{ email: string; name: string }> {
    const row = await this.db('sessions as s')
      .join('users as u', 'u.id', 's.user_id')
      .where('s.id', claims.sessionId)
      .select<{ user_id: string; revoked_at: Date | null; expires_at: Date; email: string; name: string }>('s.user_id', 's.revoked_at', 's.expires_at', 'u.email', 'u.name')
      .first();
    if (!row || row.user_id !== claims.userId || row.revoked_at) throw unauthenticated(SESSION_ENDED);
    if (row.expires_at.getTime() <= Date.now()) throw unauthenticated(SESSION_EXPIRED);
    return { email: row.email, name: row.name };
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
  koa.cookies.set(REFRESH_COOKIE, null, { httpOnly: true, sameSite: 'lax', path: REFRESH_COOKIE_PATH, secure: koa.secure, overwrite: true });
}

export function readRefreshCookie(koa: Koa.Context): string | null {
  return koa.cookies.get(REFRESH_COOKIE) || null;
}
