import type { Knex } from 'knex';

const SCANS = ['enable_seqscan', 'enable_indexscan', 'enable_indexonlyscan'];

/**
 * Holds the planner to bitmap scans for the rest of the transaction. A bitmap scan reads what an
 * index condition (the text index above all) found, in table order, and stops as soon as a LIMIT
 * is met: its cost follows the rows wanted, whatever the statistics say. Left free, the planner
 * would scan a whole table or an ordered index and filter, which is cheap only while its estimate
 * of the matches is right; for a prefix, which it guesses, it read a million highlights to find
 * twenty. Nothing after it in a search wants another plan (the statements left look rows up by id
 * or sample pages), so it is not given back: one round trip fewer on every search.
 */
export async function holdToIndexes(trx: Knex.Transaction): Promise<void> {
  await trx.raw(`select ${SCANS.map((s) => `set_config('${s}', 'off', true)`).join(', ')}`);
}
