import type { Knex } from 'knex';

/**
 * Deleting for good. Most rows that hang off a note, insight, highlight or project go with it
 * through their foreign keys (comments, tags on highlights, linked people, canvas references,
 * views, fields); stars, shares and field values name their object by type and id, so they are
 * removed here first.
 */
export interface DoomedContent {
  projects?: readonly string[];
  notes?: readonly string[];
  insights?: readonly string[];
  highlights?: readonly string[];
}

export interface DeletedCounts {
  projects: number;
  notes: number;
  insights: number;
  highlights: number;
}

const anyOf = (column: string) => `${column} = any(?::uuid[])`;

async function ids(q: Knex.QueryBuilder): Promise<string[]> {
  return ((await q.select('id')) as Array<{ id: string }>).map((r) => r.id);
}

const union = (...lists: ReadonlyArray<readonly string[]>): string[] => [...new Set(lists.flat())];

export async function deleteForGood(
  trx: Knex.Transaction,
  workspaceId: string,
  doomed: DoomedContent,
): Promise<DeletedCounts> {
  const projects = union(doomed.projects ?? []);
  const inWorkspace = (table: string) => trx(table).where({ workspace_id: workspaceId });
  const notes = union(
    doomed.notes ?? [],
    projects.length ? await ids(inWorkspace('notes').whereRaw(anyOf('project_id'), [projects])) : [],
  );
  const insights = union(
    doomed.insights ?? [],
    projects.length ? await ids(inWorkspace('insights').whereRaw(anyOf('project_id'), [projects])) : [],
  );
  const highlights = union(
    doomed.highlights ?? [],
    await ids(
      // Not by insight: an insight only cites highlights, which live on as long as their note.
      inWorkspace('highlights').where((q) =>
        q.whereRaw(anyOf('note_id'), [notes]).orWhereRaw(anyOf('project_id'), [projects]),
      ),
    ),
  );
  if (!projects.length && !notes.length && !insights.length && !highlights.length)
    return { projects: 0, notes: 0, insights: 0, highlights: 0 };

  // Rows naming their object by type and id; a table with nothing to remove is left alone (an
  // empty condition would match every row).
  const removeNamed = async (table: string, pairs: ReadonlyArray<readonly [string, readonly string[]]>) => {
    const wanted = pairs.filter(([, list]) => list.length);
    if (!wanted.length) return;
    await inWorkspace(table)
      .where((q) => {
        for (const [type, list] of wanted)
          q.orWhere((w) => w.where('object_type', type).whereRaw(anyOf('object_id'), [[...list]]));
      })
      .delete();
  };
  await removeNamed('shares', [
    ['note', notes],
    ['insight', insights],
    ['noteHighlight', highlights],
    ['project', projects],
    ['projectReadme', projects],
  ]);
  await removeNamed('stars', [
    ['NOTE', notes],
    ['INSIGHT', insights],
    ['PROJECT', projects],
  ]);
  await removeNamed('field_values', [
    ['NOTE', notes],
    ['INSIGHT', insights],
  ]);

  const remove = (table: string, list: readonly string[]) =>
    list.length
      ? inWorkspace(table)
          .whereRaw(anyOf('id'), [[...list]])
          .delete()
      : Promise.resolve(0);
  return {
    highlights: await remove('highlights', highlights),
    notes: await remove('notes', notes),
    insights: await remove('insights', insights),
    projects: await remove('projects', projects),
  };
}

/**
 * People (contacts) for good: their links to notes and highlights go with them through their
 * foreign keys; their field values name them by type and id, so they are removed here first.
 */
export async function deletePeopleForGood(
  trx: Knex.Transaction,
  workspaceId: string,
  people: readonly string[],
): Promise<number> {
  if (!people.length) return 0;
  await trx('field_values')
    .where({ workspace_id: workspaceId, object_type: 'PERSON' })
    .whereRaw(anyOf('object_id'), [[...people]])
    .delete();
  return trx('people')
    .where({ workspace_id: workspaceId })
    .whereRaw(anyOf('id'), [[...people]])
    .delete();
}
