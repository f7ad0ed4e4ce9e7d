import type { Knex } from 'knex';
import { enableTenantRls } from './lib/rls.ts';

/**
 * Keeping an external search index (Typesense) in step with the research tables, and the
 * progress of full reindexes (plus an index PostgreSQL search reads trashed notes with).
 *
 * `search_changes` is an outbox filled by triggers: one row per item whose search document may
 * have changed, named by result type and id (`PROJECT_ITEMS` names a project whose every item
 * must be re-read: its title, folder or trash state is part of their documents). A job re-reads
 * the items and upserts or deletes their documents, then deletes the rows it handled. Triggers
 * rather than calls from the research code: every writer (API, imports, retention, merges,
 * cascading deletes) is covered, in the same transaction as the change, with nothing to forget.
 * They are statement-level with transition tables, so a bulk insert costs one trigger call and
 * one outbox insert, not one per row. Rows carry no content, only ids.
 *
 * The outbox is only filled while `search_outbox_switch` holds its row, which a process started
 * with Typesense configured inserts (and one started without it removes). A row in a table
 * rather than a `current_setting()` read by the trigger: every pooled connection sees the switch
 * at once and a change of it is transactional, where a database-level setting reaches only
 * connections opened after it and a per-connection one needs every pool to set it. Without
 * Typesense a trigger costs one look into an empty one-row table per statement, and nothing per
 * row. No foreign key to `workspaces`: deleting a workspace cascades through the research tables,
 * whose triggers must not fail on the workspace they are deleting (a left-over row drains into a
 * removal from the index, which is what a deleted workspace needs anyway).
 */

interface Watch {
  table: string;
  /** Items named by a set of rows `r` (`{rows}` is the new rows, or the old ones on delete): (workspace_id, object_type, object_id). */
  items: string[];
  /** Items named on update only, where `n` (new) and `o` (old) are the same row before and after. */
  moved?: string[];
}

/** Result types a highlight's change reaches beside itself: its note and the insight citing it. */
const viaHighlight = (h: string) =>
  `cross join lateral (values ('NOTE', ${h}.note_id), ('INSIGHT', ${h}.insight_id)) v(object_type, object_id) where v.object_id is not null`;

const WATCHES: Watch[] = [
  {
    table: 'projects',
    items: [`select r.workspace_id, 'PROJECT', r.id from {rows} r`],
    // Grants and the permission map are not in any document (search applies the reader's access
    // when it asks), so only what items show of their project sends them all to be re-read.
    moved: [
      `select n.workspace_id, 'PROJECT_ITEMS', n.id from new_rows n join old_rows o on o.id = n.id
        where (n.title, n.category_id, n.deleted_at) is distinct from (o.title, o.category_id, o.deleted_at)`,
    ],
  },
  {
    table: 'project_categories',
    items: [`select r.workspace_id, 'PROJECT_CATEGORY', r.id from {rows} r`],
    // An item "in a folder" is in it or below it: moving a folder moves every project beneath.
    moved: [
      `select p.workspace_id, 'PROJECT_ITEMS', p.id from (
         with recursive below(id) as (
           select n.id from new_rows n join old_rows o on o.id = n.id where n.parent_id is distinct from o.parent_id
           union select c.id from project_categories c join below on c.parent_id = below.id)
         select id from below) b join projects p on p.category_id = b.id`,
    ],
  },
  {
    table: 'notes',
    items: [`select r.workspace_id, 'NOTE', r.id from {rows} r`],
    // A highlight of a trashed note is out of search, and people list their live notes.
    moved: [
      `select h.workspace_id, 'HIGHLIGHT', h.id from new_rows n join old_rows o on o.id = n.id join highlights h on h.note_id = n.id
        where n.deleted_at is distinct from o.deleted_at`,
      `select np.workspace_id, 'PERSON', np.person_id from new_rows n join old_rows o on o.id = n.id join note_people np on np.note_id = n.id
        where n.deleted_at is distinct from o.deleted_at`,
    ],
  },
  { table: 'insights', items: [`select r.workspace_id, 'INSIGHT', r.id from {rows} r`] },
  {
    table: 'highlights',
    items: [
      `select r.workspace_id, 'HIGHLIGHT', r.id from {rows} r`,
      `select r.workspace_id, v.object_type, v.object_id from {rows} r ${viaHighlight('r')}`,
    ],
    // Tags count their live highlights.
    moved: [
      `select ht.workspace_id, 'TAG', ht.tag_id from new_rows n join old_rows o on o.id = n.id join highlight_tags ht on ht.highlight_id = n.id
        where n.deleted_at is distinct from o.deleted_at`,
    ],
  },
  {
    table: 'tags',
    items: [`select r.workspace_id, 'TAG', r.id from {rows} r`],
    // Highlights (and their notes and insights) are filtered by their tags' groups and boards.
    moved: [
      `select h.workspace_id, 'HIGHLIGHT', h.id from new_rows n join old_rows o on o.id = n.id
         join highlight_tags ht on ht.tag_id = n.id join highlights h on h.id = ht.highlight_id
        where (n.group_id, n.board_id) is distinct from (o.group_id, o.board_id)`,
      `select h.workspace_id, v.object_type, v.object_id from new_rows n join old_rows o on o.id = n.id
         join highlight_tags ht on ht.tag_id = n.id join highlights h on h.id = ht.highlight_id ${viaHighlight('h')}
         and (n.group_id, n.board_id) is distinct from (o.group_id, o.board_id)`,
    ],
  },
  {
    table: 'highlight_tags',
    items: [
      `select r.workspace_id, 'HIGHLIGHT', r.highlight_id from {rows} r`,
      `select r.workspace_id, 'TAG', r.tag_id from {rows} r`,
      `select h.workspace_id, v.object_type, v.object_id from {rows} r join highlights h on h.id = r.highlight_id ${viaHighlight('h')}`,
    ],
  },
  {
    table: 'note_people',
    items: [
      `select r.workspace_id, 'NOTE', r.note_id from {rows} r`,
      `select r.workspace_id, 'PERSON', r.person_id from {rows} r`,
    ],
  },
  {
    table: 'highlight_people',
    items: [
      `select r.workspace_id, 'HIGHLIGHT', r.highlight_id from {rows} r`,
      `select h.workspace_id, 'INSIGHT', h.insight_id from {rows} r join highlights h on h.id = r.highlight_id where h.insight_id is not null`,
    ],
  },
  {
    table: 'people',
    items: [`select r.workspace_id, 'PERSON', r.id from {rows} r`],
    // Notes and highlights list their live people.
    moved: [
      `select np.workspace_id, 'NOTE', np.note_id from new_rows n join old_rows o on o.id = n.id join note_people np on np.person_id = n.id
        where n.deleted_at is distinct from o.deleted_at`,
      `select hp.workspace_id, 'HIGHLIGHT', hp.highlight_id from new_rows n join old_rows o on o.id = n.id join highlight_people hp on hp.person_id = n.id
        where n.deleted_at is distinct from o.deleted_at`,
    ],
  },
  {
    table: 'stars',
    items: [
      `select r.workspace_id, r.object_type, r.object_id from {rows} r where r.object_type in ('PROJECT', 'NOTE', 'INSIGHT')`,
    ],
  },
  {
    table: 'field_values',
    items: [
      `select r.workspace_id, r.object_type, r.object_id from {rows} r where r.object_type in ('NOTE', 'INSIGHT', 'PERSON')`,
    ],
  },
];

/** The channel core's invalidations listen on; `search-changes:<workspace id>` wakes the drain at once. */
const NOTIFY = `perform pg_notify('fieldbook_invalidate', 'search-changes:' || w) from unnest(touched) w;`;

function triggerFunction(watch: Watch): string {
  const insert = (selects: string[]) =>
    `with added as (
       insert into search_changes (workspace_id, object_type, object_id)
       select distinct c.workspace_id, c.object_type, c.object_id from (${selects.join('\n union all ')}) c(workspace_id, object_type, object_id)
       returning workspace_id)
     select coalesce(array_agg(distinct workspace_id::text), '{}') into touched from added;`;
  const of = (rows: string) => watch.items.map((s) => s.replaceAll('{rows}', rows));
  return `
    create or replace function search_changes_${watch.table}() returns trigger language plpgsql as $$
    declare touched text[];
    begin
      if not exists (select from search_outbox_switch) then return null; end if;
      if tg_op = 'INSERT' then
        ${insert(of('new_rows'))}
      elsif tg_op = 'DELETE' then
        ${insert(of('old_rows'))}
      else
        ${insert([...of('new_rows'), ...of('old_rows'), ...(watch.moved ?? [])])}
      end if;
      ${NOTIFY}
      return null;
    end $$`;
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create table search_outbox_switch (
    on_since timestamptz not null default now(),
    singleton boolean primary key default true check (singleton))`);

  await knex.raw(`create table search_changes (
    id bigserial primary key,
    workspace_id uuid not null,
    object_type text not null,
    object_id uuid not null,
    changed_at timestamptz not null default now())`);
  await knex.raw('create index search_changes_workspace on search_changes (workspace_id, id)');
  // The periodic sweep finds the workspaces with pending rows, reading across workspaces in a
  // transaction that asks for exactly that; rows name ids only, never content.
  await enableTenantRls(knex, 'search_changes', `current_setting('app.search_sweep', true) = 'on'`);

  for (const watch of WATCHES) {
    await knex.raw(triggerFunction(watch));
    const fn = `search_changes_${watch.table}`;
    await knex.raw(
      `create trigger ${fn}_insert after insert on ${watch.table} referencing new table as new_rows for each statement execute function ${fn}()`,
    );
    await knex.raw(
      `create trigger ${fn}_update after update on ${watch.table} referencing new table as new_rows old table as old_rows for each statement execute function ${fn}()`,
    );
    await knex.raw(
      `create trigger ${fn}_delete after delete on ${watch.table} referencing old table as old_rows for each statement execute function ${fn}()`,
    );
  }

  // Search leaves out highlights of trashed notes by an anti-join with the few trashed notes.
  await knex.raw('create index notes_trashed on notes (id) where deleted_at is not null');

  // The latest full reindex of each workspace, for its progress bar.
  await knex.schema.createTable('search_reindexes', (t) => {
    t.uuid('workspace_id').primary().references('workspaces.id').onDelete('CASCADE');
    t.text('state').notNullable();
    t.integer('processed').notNullable().defaultTo(0);
    t.integer('total').notNullable().defaultTo(0);
    t.uuid('requested_by').references('users.id').onDelete('SET NULL');
    t.timestamp('queued_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('started_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.text('error');
  });
  await knex.raw(
    `alter table search_reindexes add constraint search_reindexes_state_check check (state in ('QUEUED', 'RUNNING', 'DONE', 'FAILED'))`,
  );
  await enableTenantRls(knex, 'search_reindexes');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('search_reindexes');
  await knex.raw('drop index if exists notes_trashed');
  for (const watch of WATCHES) {
    for (const op of ['insert', 'update', 'delete'])
      await knex.raw(`drop trigger if exists search_changes_${watch.table}_${op} on ${watch.table}`);
    await knex.raw(`drop function if exists search_changes_${watch.table}()`);
  }
  await knex.schema.dropTableIfExists('search_changes');
  await knex.schema.dropTableIfExists('search_outbox_switch');
}
