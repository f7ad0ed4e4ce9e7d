import type { Knex } from 'knex';

/**
 * Channels and their data points in universal search (000 §3: CHANNEL, CHANNEL_DATAPOINT), as 0011 does it for the research
 * tables: a stored generated vector of the name (weight A) and description (B) with a GIN index,
 * and a trigram index on the name for "contains" filters and typo-tolerant matches.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table channels add column search_vector tsvector generated always as (
    setweight(to_tsvector('fb_search'::regconfig, coalesce(name, '')), 'A') || setweight(to_tsvector('fb_search'::regconfig, coalesce(description, '')), 'B')
  ) stored`);
  await knex.raw('create index channels_search_vector on channels using gin (search_vector)');
  await knex.raw('create index channels_name_search_trgm on channels using gin (fb_search_text(name) gin_trgm_ops)');
  // Data points (CHANNEL_DATAPOINT): their text alone, and trigrams of its first 50 characters (002 §9).
  await knex.raw(`alter table channel_datapoints add column search_vector tsvector generated always as (
    setweight(to_tsvector('fb_search'::regconfig, coalesce(content, '')), 'A')
  ) stored`);
  await knex.raw('create index channel_datapoints_search_vector on channel_datapoints using gin (search_vector)');
  await knex.raw(
    'create index channel_datapoints_content_search_trgm on channel_datapoints using gin (fb_search_text(left(content, 50)) gin_trgm_ops)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists channel_datapoints_content_search_trgm');
  await knex.raw('drop index if exists channel_datapoints_search_vector');
  await knex.raw('alter table channel_datapoints drop column if exists search_vector');
  await knex.raw('drop index if exists channels_name_search_trgm');
  await knex.raw('drop index if exists channels_search_vector');
  await knex.raw('alter table channels drop column if exists search_vector');
}
