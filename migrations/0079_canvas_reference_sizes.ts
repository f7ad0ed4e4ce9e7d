import type { Knex } from 'knex';

/**
 * A reference on a canvas (a highlight, insight or note card) can be resized like any other item:
 * its width and height are kept when set, both together, and null means the usual card size.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table project_view_canvas_items drop constraint if exists canvas_items_size_check');
  await knex.raw(`alter table project_view_canvas_items add constraint canvas_items_size_check check (
    ((width is null) = (height is null)) and (kind = 'REFERENCE' or width is not null) and (width is null or width > 0) and (height is null or height > 0))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`update project_view_canvas_items set width = null, height = null where kind = 'REFERENCE'`);
  await knex.raw('alter table project_view_canvas_items drop constraint if exists canvas_items_size_check');
  await knex.raw(`alter table project_view_canvas_items add constraint canvas_items_size_check check (
    (kind = 'REFERENCE') = (width is null and height is null) and (width is null or width > 0) and (height is null or height > 0))`);
}
