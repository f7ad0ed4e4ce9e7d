import type { Knex } from 'knex';

/**
 * Universal search on PostgreSQL. Each searchable table gets a stored generated `search_vector`
 * (title or name weighted A, content B) with a GIN index, and trigram GIN indexes on titles and
 * content for substring ("contains") filters and typo-tolerant matches.
 *
 * Generated columns rather than triggers: the vector depends only on the row itself, so
 * PostgreSQL keeps it right on every insert and update with nothing to forget or disable, and
 * the research code writing these tables need not know search exists.
 *
 * Text is read with `fb_search`, the `simple` configuration with accents removed first: a
 * workspace holds research in any language, and stemming with the wrong language mangles words;
 * prefix and trigram matching cover the near misses stemming would have caught. Because the
 * configuration itself unaccents, `ts_headline` marks the accented words of the original text.
 */
const VECTORS: ReadonlyArray<{ table: string; title: string; content: string | null; trigram: string[] }> = [
  { table: 'project_categories', title: 'title', content: null, trigram: ['title'] },
  { table: 'projects', title: 'title', content: 'fb_rich_text(readme)', trigram: ['title'] },
  { table: 'notes', title: 'title', content: 'content_text', trigram: ['title', 'content_text'] },
  { table: 'insights', title: 'title', content: 'content_text', trigram: ['title', 'content_text'] },
  { table: 'highlights', title: `''`, content: 'text', trigram: ['text'] },
  { table: 'tags', title: 'title', content: null, trigram: ['title'] },
  { table: 'people', title: 'name', content: null, trigram: ['name'] },
];

export async function up(knex: Knex): Promise<void> {
  // 0001 created them already; kept so this migration stands on its own (it runs as the owner).
  await knex.raw('create extension if not exists pg_trgm');
  await knex.raw('create extension if not exists unaccent');
  // Functions used by generated columns must not depend on the search_path of whoever writes a row.
  const found = (await knex.raw(
    `select extnamespace::regnamespace::text as ext, current_schema() as own from pg_extension where extname = 'unaccent'`,
  )) as { rows: Array<{ ext: string; own: string }> };
  const { ext: schema, own } = found.rows[0]!;

  // unaccent() is only STABLE (it reads its dictionary by name at run time); naming the dictionary
  // makes the result depend on the input alone, so indexes and generated columns may use it.
  await knex.raw(`
    create or replace function fb_unaccent(text) returns text
    language sql immutable parallel safe strict
    as $$ select ${schema}.unaccent('${schema}.unaccent'::regdictionary, $1) $$`);
  // The text of a rich-text document (every "text" leaf, in order), for the project readme.
  await knex.raw(`
    create or replace function fb_rich_text(doc jsonb) returns text
    language sql immutable parallel safe
    as $$ select coalesce(string_agg(t #>> '{}', ' '), '') from jsonb_path_query(coalesce(doc, 'null'::jsonb), 'strict $.**.text') as t where jsonb_typeof(t) = 'string' $$`);
  // Filters compare dates held in custom field values; a malformed one reads as no date, not an error.
  await knex.raw(`
    create or replace function fb_to_timestamptz(text) returns timestamptz
    language plpgsql stable parallel safe strict
    as $$ begin return $1::timestamptz; exception when others then return null; end $$`);
  await knex.raw(`create text search configuration fb_search (copy = pg_catalog.simple)`);
  await knex.raw(
    `alter text search configuration fb_search alter mapping for hword, hword_part, word with ${schema}.unaccent, simple`,
  );
  // What substring and trigram matches compare: lower case without accents.
  await knex.raw(`
    create or replace function fb_search_text(text) returns text
    language sql immutable parallel safe
    as $$ select lower(${own}.fb_unaccent(coalesce($1, ''))) $$`);

  for (const { table, title, content, trigram } of VECTORS) {
    const weighted = [`setweight(to_tsvector('fb_search'::regconfig, coalesce(${title}, '')), 'A')`];
    if (content) weighted.push(`setweight(to_tsvector('fb_search'::regconfig, coalesce(${content}, '')), 'B')`);
    await knex.raw(
      `alter table ?? add column search_vector tsvector generated always as (${weighted.join(' || ')}) stored`,
      [table],
    );
    await knex.raw(`create index ?? on ?? using gin (search_vector)`, [`${table}_search_vector`, table]);
    for (const column of trigram) {
      await knex.raw(`create index ?? on ?? using gin (fb_search_text(??) gin_trgm_ops)`, [
        `${table}_${column}_search_trgm`,
        table,
        column,
      ]);
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const { table, trigram } of VECTORS) {
    for (const column of trigram) await knex.raw('drop index if exists ??', [`${table}_${column}_search_trgm`]);
    await knex.raw('alter table ?? drop column if exists search_vector', [table]);
  }
  await knex.raw('drop function if exists fb_search_text(text)');
  await knex.raw('drop text search configuration if exists fb_search');
  await knex.raw('drop function if exists fb_to_timestamptz(text)');
  await knex.raw('drop function if exists fb_rich_text(jsonb)');
  await knex.raw('drop function if exists fb_unaccent(text)');
}
