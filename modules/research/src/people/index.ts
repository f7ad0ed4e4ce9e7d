import type { ModuleContext, ModuleGraphql, RequestContext } from '@fieldbook/core';
import type { HighlightView } from '../highlights/highlights.ts';
import type { DocumentView } from '../notes/documents.ts';
import { personHighlights, personNotes, setHighlightPerson, setNotePerson } from './links.ts';
import { peopleOfHighlight, peopleOfNote } from './loaders.ts';
import { createPerson, deletePerson, getPerson, listPeople, updatePerson, type PersonView } from './people.ts';
import { peopleTypeDefs } from './schema.ts';

type Args = Record<string, unknown>;
type Resolver<P = unknown> = (parent: P, args: Args, ctx: RequestContext) => Promise<unknown> | unknown;

/** People (contacts) and their links to notes and highlights: the research module's people part. */
export function peoplePart(_ctx: ModuleContext): ModuleGraphql {
  const Query: Record<string, Resolver> = {
    people: (_p, args, ctx) => listPeople(ctx, args),
    person: (_p, args, ctx) => getPerson(ctx, args),
    personNotes: (_p, args, ctx) => personNotes(ctx, args),
    personHighlights: (_p, args, ctx) => personHighlights(ctx, args),
  };
  const Mutation: Record<string, Resolver> = {
    createPerson: (_p, args, ctx) => createPerson(ctx, args),
    updatePerson: (_p, args, ctx) => updatePerson(ctx, args),
    deletePerson: (_p, args, ctx) => deletePerson(ctx, args),
    addPersonToNote: (_p, args, ctx) => setNotePerson(ctx, args, true),
    removePersonFromNote: (_p, args, ctx) => setNotePerson(ctx, args, false),
    addPersonToHighlight: (_p, args, ctx) => setHighlightPerson(ctx, args, true),
    removePersonFromHighlight: (_p, args, ctx) => setHighlightPerson(ctx, args, false),
  };
  const Person: Record<string, Resolver<PersonView>> = {
    avatarUrl: (p) => p.avatar_url,
    createdById: (p) => p.created_by,
    updatedById: (p) => p.updated_by,
    createdAt: (p) => p.created_at,
    updatedAt: (p) => p.updated_at,
  };
  const Note: Record<string, Resolver<DocumentView>> = {
    people: (note, _a, ctx) => peopleOfNote(ctx, note.caller, note.id),
  };
  const Highlight: Record<string, Resolver<HighlightView>> = {
    people: (h, _a, ctx) => peopleOfHighlight(ctx, h.caller, h.id),
  };
  return { typeDefs: peopleTypeDefs, resolvers: { Query, Mutation, Person, Note, Highlight } };
}
