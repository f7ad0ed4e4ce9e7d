import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { RequestContext } from '../kernel/request-context.ts';
import { clientAddress } from './sign-in-limits/client-address.ts';
import { HashQueueTimeout, HashSlots } from './sign-in-limits/hash-slots.ts';
import { tooManyRequests } from './sign-in-limits/too-many-requests.ts';

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** scrypt cost of the architecture page: N=2^17, r=8, p=1 (128 MiB of memory per hash); PASSWORD_HASH_COST's default. */
export const SCRYPT_COST: Readonly<ScryptCost> = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

function scrypt(password: string, salt: Buffer, cost: Readonly<ScryptCost>): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes; allow twice that so the default 32 MiB cap never bites.
  const options: ScryptOptions = { N: cost.N, r: cost.r, p: cost.p, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) => {
    scryptCb(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Hashes a password into a self-describing string: `scrypt$N$r$p$salt$hash` (base64url parts). */
export async function hashPassword(password: string, cost: Readonly<ScryptCost> = SCRYPT_COST): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, cost);
  const { N, r, p } = cost;
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Checks a password against a stored hash in constant time. The cost is read from the hash, so
 * hashes made with an older cost keep working after the cost is raised.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0)) return false;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  const actual = await scrypt(password, salt, { N, r, p });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** One decoy hash per cost, made on first use. */
const decoys = new Map<string, Promise<string>>();

/**
 * Spends the same time as a real check when there is no account, so response times do not tell
 * whether an email has an account. The decoy has the cost new hashes get, as real accounts mostly do.
 */
export async function verifyAgainstDecoy(password: string, cost: Readonly<ScryptCost> = SCRYPT_COST): Promise<false> {
  const key = `${cost.N}$${cost.r}$${cost.p}`;
  let decoy = decoys.get(key);
  if (!decoy) decoys.set(key, (decoy = hashPassword('decoy password that matches no one', cost)));
  await verifyPassword(password, await decoy);
  return false;
}

export const HASHING_BUSY = 'Sign-in is very busy right now. Please try again in a few seconds.';
/** What a caller turned away by a full hash queue is told to wait. */
const BUSY_RETRY_SECONDS = 5;

/**
 * Every password hash and check of a running Fieldbook goes through here, so that only a few run
 * at once (see `HashSlots`); one that cannot get a slot in time is TOO_MANY_REQUESTS.
 */
export class PasswordHasher {
  private readonly slots: HashSlots;

  constructor(
    limits: { hashConcurrency: number; hashQueueSeconds: number },
    private readonly trustProxy: number,
    /** The cost of new hashes (PASSWORD_HASH_COST); checks read each stored hash's own. */
    private readonly cost: Readonly<ScryptCost> = SCRYPT_COST,
  ) {
    this.slots = new HashSlots(limits.hashConcurrency, limits.hashQueueSeconds * 1000);
  }

  hash(password: string, ctx: RequestContext | null = null): Promise<string> {
    return this.inSlot(ctx, () => hashPassword(password, this.cost));
  }

  verify(password: string, stored: string, ctx: RequestContext | null = null): Promise<boolean> {
    return this.inSlot(ctx, () => verifyPassword(password, stored));
  }

  /** A check that takes as long as a real one, for when there is no password to check against. */
  verifyDecoy(password: string, ctx: RequestContext | null = null): Promise<false> {
    return this.inSlot(ctx, () => verifyAgainstDecoy(password, this.cost));
  }

  private async inSlot<T>(ctx: RequestContext | null, work: () => Promise<T>): Promise<T> {
    try {
      // Hashes wait in line per client address, so one address's flood cannot hold up the others.
      const client = ctx?.koa ? clientAddress(ctx.koa, this.trustProxy) : 'within Fieldbook';
      return await this.slots.run(client, work);
    } catch (err) {
      if (err instanceof HashQueueTimeout) throw tooManyRequests(ctx, BUSY_RETRY_SECONDS, HASHING_BUSY);
      throw err;
    }
  }
}
