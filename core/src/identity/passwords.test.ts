import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { PasswordHasher, SCRYPT_COST, hashPassword, verifyPassword } from './passwords.ts';

const settings = { secretKey: 'k'.repeat(32) };
const limits = { hashConcurrency: 2, hashQueueSeconds: 10 };
const SELF_DESCRIBING = (n: number) => new RegExp(`^scrypt\\$${n}\\$8\\$1\\$[A-Za-z0-9_-]{22}\\$[A-Za-z0-9_-]{43}$`);

describe('password hashes', () => {
  it('are made at the architecture cost by default: scrypt N=2^17, r=8, p=1, self-describing', async () => {
    expect(loadConfig({}, settings).passwordHashCost).toEqual({ N: 131072, r: 8, p: 1 });
    expect(SCRYPT_COST).toEqual({ N: 131072, r: 8, p: 1 });
    const stored = await new PasswordHasher(limits, 0, loadConfig({}, settings).passwordHashCost).hash(
      'Correct-Horse-42',
    );
    expect(stored).toMatch(SELF_DESCRIBING(131072));
    expect(await verifyPassword('Correct-Horse-42', stored)).toBe(true);
    expect(await verifyPassword('Correct-Horse-43', stored)).toBe(false);
  });

  it('take PASSWORD_HASH_COST as log2 of N, and each is checked at the cost it names, so changing it locks no one out', async () => {
    expect(loadConfig({ PASSWORD_HASH_COST: '12' }, settings).passwordHashCost).toEqual({ N: 4096, r: 8, p: 1 });
    const cheap = new PasswordHasher(limits, 0, loadConfig({ PASSWORD_HASH_COST: '10' }, settings).passwordHashCost);
    const older = await cheap.hash('Correct-Horse-42');
    expect(older).toMatch(SELF_DESCRIBING(1024));
    // The cost raised afterwards: the older hash still checks, at its own cost.
    const raised = new PasswordHasher(limits, 0, loadConfig({ PASSWORD_HASH_COST: '12' }, settings).passwordHashCost);
    expect(await raised.verify('Correct-Horse-42', older)).toBe(true);
    expect(await raised.verify('Correct-Horse-41', older)).toBe(false);
    expect(await raised.hash('Correct-Horse-42')).toMatch(SELF_DESCRIBING(4096));
    expect(
      await verifyPassword('Correct-Horse-42', await hashPassword('Correct-Horse-42', { N: 2048, r: 8, p: 1 })),
    ).toBe(true);
  });

  it('refuse a PASSWORD_HASH_COST outside 10 to 20, naming the setting', () => {
    expect(() => loadConfig({ PASSWORD_HASH_COST: '9' }, settings)).toThrow(/PASSWORD_HASH_COST/);
    expect(() => loadConfig({ PASSWORD_HASH_COST: '21' }, settings)).toThrow(/PASSWORD_HASH_COST/);
    expect(() => loadConfig({ PASSWORD_HASH_COST: 'cheap' }, settings)).toThrow(/PASSWORD_HASH_COST/);
  });
});
