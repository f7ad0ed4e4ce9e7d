import type { Knex } from 'knex';
import { badInput } from '../errors/app-error.ts';
import { codeHash, randomSecret, randomSixDigitCode, sha256Hex } from './secrets.ts';

/** What a challenge proves when it is answered. */
export type ChallengePurpose = 'confirm_email' | 'one_time_code' | 'reset_password' | 'magic_login' | 'unlock';

const MINUTE = 60_000;
/** How long each kind of link or code stays valid. */
export const CHALLENGE_LIFETIME_MS: Record<ChallengePurpose, number> = {
  confirm_email: 24 * 60 * MINUTE,
  one_time_code: 10 * MINUTE,
  reset_password: 60 * MINUTE,
  magic_login: 15 * MINUTE,
  unlock: 24 * 60 * MINUTE,
};
export const ONE_TIME_CODE_MAX_ATTEMPTS = 5;

/** What the application role may read of a challenge: its hash is write-only (db/privileges.ts). */
interface ChallengeRow {
  id: string;
  email: string;
  purpose: ChallengePurpose;
  attempts: number;
  payload: Record<string, unknown>;
  expires_at: Date;
  consumed_at: Date | null;
}

export interface AnsweredChallenge {
  id: string;
  email: string;
  payload: Record<string, unknown>;
}

/** Words for each link in error messages. */
const LINK_NAMES: Record<ChallengePurpose, string> = {
  confirm_email: 'confirmation link',
  one_time_code: 'code',
  reset_password: 'password reset link',
  magic_login: 'sign-in link',
  unlock: 'unlock link',
};

/** Counted from the database clock, like `created_at`, so the lifetime is exact. */
const expiresIn = (db: Knex, ms: number) => db.raw('now() + make_interval(secs => ?)', [ms / 1000]);

/**
 * Emailed links and one-time codes. Only a hash of each secret is stored; links and codes are
 * single use and expire.
 */
export class EmailChallenges {
  constructor(
    private readonly db: Knex,
    private readonly codeKey: Buffer,
  ) {}

  /** Creates a link challenge; returns the token to put in the link. */
  async createLink(
    purpose: Exclude<ChallengePurpose, 'one_time_code'>,
    email: string,
    payload: Record<string, unknown> = {},
    db: Knex = this.db,
  ): Promise<string> {
    const token = randomSecret();
    await db('email_challenges').insert({
      email,
      purpose,
      secret_hash: sha256Hex(token),
      payload: JSON.stringify(payload),
      expires_at: expiresIn(db, CHALLENGE_LIFETIME_MS[purpose]),
    });
    return token;
  }

  /** Creates a one-time code challenge; its id is the code challenge handed to the client. */
  async createCode(
    email: string,
    payload: Record<string, unknown> = {},
  ): Promise<{ codeChallenge: string; code: string }> {
    const code = randomSixDigitCode();
    return this.db.transaction(async (trx) => {
      const [row] = await trx('email_challenges')
        .insert({
          email,
          purpose: 'one_time_code',
          secret_hash: '0'.repeat(64), // replaced below: the hash is keyed with the row's own id
          payload: JSON.stringify(payload),
          expires_at: expiresIn(trx, CHALLENGE_LIFETIME_MS.one_time_code),
        })
        .returning<Array<{ id: string }>>('id');
      await trx('email_challenges')
        .where({ id: row!.id })
        .update({ secret_hash: codeHash(this.codeKey, row!.id, code) });
      return { codeChallenge: row!.id, code };
    });
  }

  /** Consumes a link token of the given purpose, or fails with words for the person. */
  async consumeLink(
    purpose: Exclude<ChallengePurpose, 'one_time_code'>,
    token: string,
    field = 'token',
  ): Promise<AnsweredChallenge> {
    const rows = await this.db.raw<{ rows: AnsweredChallenge[] }>(
      'select id, email, payload from email_challenge_consume_link(?, ?)',
      [sha256Hex(token), purpose],
    );
    const row = rows.rows[0];
    if (row) return { id: row.id, email: row.email, payload: row.payload };
    const name = LINK_NAMES[purpose];
    const stale = (
      await this.db.raw<{ rows: Array<{ consumed: boolean }> }>(
        'select consumed from email_challenge_link_state(?, ?)',
        [sha256Hex(token), purpose],
      )
    ).rows[0];
    if (stale?.consumed) throw badInput(field, `This ${name} was already used. Please request a new one.`);
    if (stale) throw badInput(field, `This ${name} has expired. Please request a new one.`);
    throw badInput(field, `This ${name} is not valid. Please request a new one.`);
  }

  /**
   * Checks a one-time code. A wrong code uses up one of the attempts (that write is kept even
   * though the answer is an error); the right one consumes the challenge.
   */
  async consumeCode(codeChallenge: string, code: string): Promise<AnsweredChallenge> {
    const outcome = await this.db.transaction(async (trx) => {
      const row = await trx<ChallengeRow>('email_challenges')
        .where({ id: codeChallenge, purpose: 'one_time_code' })
        .forUpdate()
        .first('id', 'email', 'purpose', 'attempts', 'payload', 'expires_at', 'consumed_at');
      if (!row) return { error: badInput('codeChallenge', 'This code is not valid. Please request a new one.') };
      if (row.consumed_at) return { error: badInput('code', 'This code was already used. Please request a new one.') };
      if (row.expires_at.getTime() <= Date.now())
        return { error: badInput('code', 'This code has expired. Please request a new one.') };
      if (row.attempts >= ONE_TIME_CODE_MAX_ATTEMPTS) {
        return { error: badInput('code', 'Too many wrong codes were entered. Please request a new one.') };
      }
      // Compared by the database: the stored hash is out of this role's reach. Five tries per
      // challenge leave nothing to learn from the comparison's timing.
      const matches = await trx.raw<{ rows: Array<{ matches: boolean }> }>(
        'select email_challenge_code_matches(?, ?) as matches',
        [row.id, codeHash(this.codeKey, row.id, code.trim())],
      );
      if (!matches.rows[0]?.matches) {
        const left = ONE_TIME_CODE_MAX_ATTEMPTS - row.attempts - 1;
        await trx('email_challenges')
          .where({ id: row.id })
          .increment('attempts', 1)
          .update({ updated_at: trx.fn.now() });
        return {
          error: badInput(
            'code',
            left > 0
              ? `That code is not right. You have ${left} ${left === 1 ? 'try' : 'tries'} left.`
              : 'That code is not right, and no tries are left. Please request a new one.',
          ),
        };
      }
      await trx('email_challenges')
        .where({ id: row.id })
        .update({ consumed_at: trx.fn.now(), updated_at: trx.fn.now() });
      return { challenge: { id: row.id, email: row.email, payload: row.payload } };
    });
    if ('error' in outcome) throw outcome.error;
    return outcome.challenge;
  }
}
