/**
 * log2 of scrypt's N (PASSWORD_HASH_COST) in test servers, vitest's and the browser tests': 1 MiB
 * and a few milliseconds a hash instead of 128 MiB and about a second on a busy machine, which
 * hundreds of test sign-ups and sign-ins add up to minutes. The tests of hashing itself and of
 * the limits on it ask for the production cost. `TEST_PASSWORD_HASH_COST=17` runs every test at it.
 */
export const TEST_PASSWORD_HASH_COST = Number(process.env.TEST_PASSWORD_HASH_COST ?? 10);
