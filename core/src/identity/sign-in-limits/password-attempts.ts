import type { Config } from '../../config.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import type { AttemptCounters, CounterKey } from './attempt-counters.ts';
import { clientAddress } from './client-address.ts';
import { inWords, tooManyRequests } from './too-many-requests.ts';

/** The counters one password attempt was taken from, to give back if it succeeds. */
export interface PasswordAttempt {
  keys: string[];
}

const emailKey = (email: string): string => `email:${email.toLowerCase()}`;

/**
 * Limits password attempts (sign-in and the re-checks of a signed-in person's password) per client
 * address and per email address, before any hashing, so a refused attempt costs one upsert and no
 * scrypt. The email's counter exists whether or not the email has an account, so being limited
 * tells nothing about which emails do. A successful attempt is given back: people who sign in
 * often are never limited, only failures add up.
 */
export class PasswordAttempts {
  constructor(
    private readonly counters: AttemptCounters,
    private readonly config: Pick<Config, 'signInLimits' | 'trustProxy'>,
  ) {}

  /** Takes one attempt for the request's address and the email, or throws TOO_MANY_REQUESTS. */
  async begin(ctx: RequestContext | null, email: string): Promise<PasswordAttempt> {
    const { perAddress, perAccount } = this.config.signInLimits;
    const keys: CounterKey[] = [{ key: emailKey(email), allowance: perAccount }];
    if (ctx?.koa)
      keys.push({ key: `address:${clientAddress(ctx.koa, this.config.trustProxy)}`, allowance: perAddress });
    const refusal = await this.counters.take(keys);
    if (refusal) {
      throw tooManyRequests(
        ctx,
        refusal.retryAfterSeconds,
        `Too many sign-in attempts. Please try again ${inWords(refusal.retryAfterSeconds)}, or sign in with a code or link sent to your email.`,
      );
    }
    return { keys: keys.map((k) => k.key) };
  }

  /** The password was right: the attempt does not count against anyone. */
  async succeeded(attempt: PasswordAttempt): Promise<void> {
    await this.counters.giveBack(attempt.keys);
  }

  /** The person proved they read the mailbox: their email's counter starts afresh. */
  async forgetEmail(email: string): Promise<void> {
    await this.counters.clear([emailKey(email)]);
  }
}
