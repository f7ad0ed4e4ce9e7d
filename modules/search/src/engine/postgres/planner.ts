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

const JOINS = ['enable_hashjoin', 'enable_mergejoin'];

/**
 * Runs `body` with the planner held to nested loops, then gives the settings back as they were.
 * For the walk through a type's newest items: its matches come newest first and the pool stops at
 * its candidates, which only a join that keeps that order allows. The planner guesses a prefix
 * matches 2 % of the window, fewer than the candidates, so it would join by hash, read the whole
 * window (up to 15,000 items) and sort it: twice the reading (26 against 14 ms for "scatt" over
 * 10,000 highlights, measured on a loaded machine).
 */
export async function withOrderedJoins<T>(trx: Knex.Transaction, body: () => Promise<T>): Promise<T> {
  const read = (await trx.raw(
    `select ${JOINS.map((s, i) => `current_setting('${s}') as s${i}`).join(', ')}, ${JOINS.map((s) => `set_config('${s}', 'off', true)`).join(', ')}`,
  )) as { rows: Array<Record<string, string>> };
  const before = read.rows[0]!;
  try {
    return await body();
  } finally {
    // Settings are fixed names and PostgreSQL's own 'on' / 'off', never request data.
    await trx.raw(
      `select ${JOINS.map((s, i) => `set_config('${s}', '${before[`s${i}`] === 'off' ? 'off' : 'on'}', true)`).join(', ')}`,
    );
  }
}
