import type { Knex } from 'knex';

const SCANS = ['enable_seqscan', 'enable_indexscan', 'enable_indexonlyscan'];
const setAll = (value: 'on' | 'off') => `select ${SCANS.map((s) => `set_config('${s}', '${value}', true)`).join(', ')}`;

/**
 * Runs `work` with the planner held to bitmap scans, then gives it back its choice (for the rest of
 * the transaction; a failure ends the transaction anyway). A bitmap scan reads what an index
 * condition (the text index above all) found, in table order, and stops as soon as a LIMIT is met:
 * its cost follows the rows wanted, whatever the statistics say. Left free, the planner would scan
 * a whole table or an ordered index and filter, which is cheap only while its estimate of the
 * matches is right; for a prefix, which it guesses, it read a million highlights to find twenty.
 */
export async function throughIndexes<T>(trx: Knex.Transaction, work: () => Promise<T>): Promise<T> {
  await trx.raw(setAll('off'));
  const result = await work();
  await trx.raw(setAll('on'));
  return result;
}
