import type { Knex } from 'knex';

const ADDED = ['channel', 'dataset'];

/** The object types the `shares_object_type_check` constraint allows now. */
async function allowedTypes(knex: Knex): Promise<string[]> {
  const { rows } = (await knex.raw(
    `select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'shares_object_type_check' and conrelid = 'shares'::regclass`,
  )) as {
    rows: Array<{ def: string }>;
  };
  return [...(rows[0]?.def ?? '').matchAll(/'([A-Za-z]+)'::/g)].map((m) => m[1]!);
}

async function replaceCheck(knex: Knex, types: string[]): Promise<void> {
  await knex.raw('alter table shares drop constraint if exists shares_object_type_check');
  // DDL takes no bound parameters; the types are plain letters (checked), so they are inlined.
  if (!types.every((t) => /^[A-Za-z]+$/.test(t))) throw new Error(`Unexpected share object types: ${types.join(', ')}`);
  await knex.raw(
    `alter table shares add constraint shares_object_type_check check (object_type in (${types.map((t) => `'${t}'`).join(', ')}))`,
  );
}

/**
 * Public links to a channel and to a dataset (000 §3 share types channel and dataset). The check
 * constraint gains the two types, keeping whatever other types it already allows, so modules that
 * add share types of their own do so in any order.
 */
export async function up(knex: Knex): Promise<void> {
  const types = await allowedTypes(knex);
  await replaceCheck(knex, [...new Set([...types, ...ADDED])]);
}

export async function down(knex: Knex): Promise<void> {
  await knex('shares').whereIn('object_type', ADDED).delete();
  await replaceCheck(
    knex,
    (await allowedTypes(knex)).filter((t) => !ADDED.includes(t)),
  );
}
