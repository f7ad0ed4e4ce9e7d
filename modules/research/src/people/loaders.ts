import DataLoader from 'dataloader';
import type { RequestContext } from '@fieldbook/core';
import type { Caller } from '../projects/access.ts';
import { personView, type PersonRow, type PersonView } from './people.ts';

/**
 * Per-request batches: a page of notes (or highlights) with their people reads the links once,
 * whatever the page's length (no N+1). People in the trash are left out.
 */
interface PeopleLoaders {
  ofNote: DataLoader<string, PersonRow[]>;
  ofHighlight: DataLoader<string, PersonRow[]>;
}

const perRequest = new WeakMap<RequestContext, PeopleLoaders>();

function linkedLoader(
  ctx: RequestContext,
  table: 'note_people' | 'highlight_people',
  column: 'note_id' | 'highlight_id',
) {
  return new DataLoader<string, PersonRow[]>(async (ids) => {
    const rows = (await ctx.tx((trx) =>
      trx(`${table} as l`)
        .join('people as p', 'p.id', 'l.person_id')
        .whereIn(`l.${column}`, ids as string[])
        .whereNull('p.deleted_at')
        .orderBy([{ column: 'p.name' }, { column: 'p.id' }])
        .select('p.*', `l.${column} as owner_id`),
    )) as Array<PersonRow & { owner_id: string }>;
    const by = new Map<string, PersonRow[]>(ids.map((id) => [id, []]));
    for (const { owner_id, ...person } of rows) by.get(owner_id)?.push(person);
    return ids.map((id) => by.get(id) ?? []);
  });
}

function loaders(ctx: RequestContext): PeopleLoaders {
  let found = perRequest.get(ctx);
  if (!found) {
    found = {
      ofNote: linkedLoader(ctx, 'note_people', 'note_id'),
      ofHighlight: linkedLoader(ctx, 'highlight_people', 'highlight_id'),
    };
    perRequest.set(ctx, found);
  }
  return found;
}

/** The parent note or highlight was already authorized when it was read. */
export const peopleOfNote = async (ctx: RequestContext, caller: Caller, noteId: string): Promise<PersonView[]> =>
  (await loaders(ctx).ofNote.load(noteId)).map(personView(caller));

export const peopleOfHighlight = async (
  ctx: RequestContext,
  caller: Caller,
  highlightId: string,
): Promise<PersonView[]> => (await loaders(ctx).ofHighlight.load(highlightId)).map(personView(caller));
