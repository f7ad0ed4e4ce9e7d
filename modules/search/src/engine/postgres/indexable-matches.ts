import type { Knex } from 'knex';

/**
 * Under row-level security PostgreSQL uses a condition as an index condition only if its function
 * is LEAKPROOF (otherwise it must run after the policy's own condition, row by row). The text
 * match operators search relies on are not declared so: `@@` (GIN on the stored vectors), `LIKE`,
 * pg_trgm's word similarity (trigram indexes for "contains" filters and close spellings) and `&&`
 * (a highlight's tags, migration 0088: a tag filter counted 5,000 highlights in a table scan). So
 * every search as the application role read whole tables: a rare word took 750 ms on a million
 * highlights instead of one.
 *
 * These functions compute a boolean from their two arguments and raise no error that depends on a
 * row's data, so declaring them LEAKPROOF reveals nothing a policy hides. Only a superuser may
 * declare it; with an owner that is not one (a managed PostgreSQL), searches stay correct and
 * read more, and the log says how to fix it. The flag lives in the database's own catalog and a
 * dump does not carry it, so this runs at every start rather than once in a migration.
 */
const MATCH_FUNCTIONS = [
  'pg_catalog.ts_match_vq(tsvector, tsquery)',
  'pg_catalog.textlike(text, text)',
  'pg_catalog.arrayoverlap(anyarray, anyarray)',
];
const TRIGRAM_FUNCTIONS = ['word_similarity_op(text, text)', 'word_similarity_commutator_op(text, text)'];

interface Log {
  warn(obj: object, msg?: string): void;
}

export async function ensureIndexableMatches(owner: Knex, logger: Log): Promise<void> {
  const found = (await owner.raw(
    `select r.rolsuper as superuser, e.extnamespace::regnamespace::text as trgm
       from pg_roles r left join pg_extension e on e.extname = 'pg_trgm' where r.rolname = current_user`,
  )) as { rows: Array<{ superuser: boolean; trgm: string | null }> };
  const me = found.rows[0];
  const functions = [...MATCH_FUNCTIONS, ...(me?.trgm ? TRIGRAM_FUNCTIONS.map((f) => `${me.trgm}.${f}`) : [])];
  const missing = (await owner.raw(
    `select f from unnest(?::text[]) f where not (select proleakproof from pg_proc where oid = f::regprocedure)`,
    [functions],
  )) as {
    rows: Array<{ f: string }>;
  };
  if (missing.rows.length === 0) return;
  if (!me?.superuser) {
    const statements = missing.rows.map((r) => `ALTER FUNCTION ${r.f} LEAKPROOF;`).join(' ');
    logger.warn(
      { functions: missing.rows.map((r) => r.f) },
      `search cannot use its text indexes under row-level security; as a superuser run: ${statements}`,
    );
    return;
  }
  for (const { f } of missing.rows) await owner.raw(`alter function ${f} leakproof`);
}
