import { describe, expect, it } from 'vitest';
import { contentFixture, createProject, doc, failure, ok, useResearchFixture, type Gql } from './content-support.ts';

const NOTE_FIELDS = 'id projectId title content contentText archived locked rank starred createdById updatedById';
const CREATE = `mutation($input: CreateNoteInput!) { createNote(input: $input) { ${NOTE_FIELDS} } }`;
const UPDATE = `mutation($id: ID!, $input: UpdateNoteInput!) { updateNote(id: $id, input: $input) { ${NOTE_FIELDS} } }`;
const NOTE = `query($id: ID!) { note(id: $id) { ${NOTE_FIELDS} project { id title } } }`;
const NOTES = `query($p: ID!, $first: Int, $after: String, $order: ContentOrder, $archived: Boolean) {
  notes(projectId: $p, first: $first, after: $after, orderBy: $order, archived: $archived) { nodes { id title rank } endCursor hasNextPage }
}`;
const MOVE = 'mutation($id: ID!, $p: ID, $n: ID) { moveNote(id: $id, previousId: $p, nextId: $n) { id rank } }';
const DELETE = 'mutation($id: ID!) { deleteNote(id: $id) }';

interface Note {
  id: string;
  projectId: string;
  title: string;
  content: unknown;
  contentText: string;
  archived: boolean;
  locked: boolean;
  rank: number;
  starred: boolean;
  createdById: string;
  updatedById: string;
}
interface Page {
  notes: { nodes: Array<{ id: string; title: string; rank: number }>; endCursor: string | null; hasNextPage: boolean };
}

async function createNote(
  gql: Gql,
  projectId: string,
  title: string,
  extra: Record<string, unknown> = {},
): Promise<Note> {
  return ok(await gql<{ createNote: Note }>(CREATE, { input: { projectId, title, ...extra } })).createNote;
}

describe('notes', () => {
  const f = useResearchFixture('Interviews');

  it('creates and updates a note with rich text and its plain text, recording who did it', async () => {
    const note = await createNote(f.contributor.gql, f.projectId, 'Call with Ana', {
      content: doc('First line', 'Second line'),
    });
    expect(note).toMatchObject({
      projectId: f.projectId,
      title: 'Call with Ana',
      contentText: 'First line\nSecond line',
      archived: false,
      locked: false,
      starred: false,
    });
    expect(note.createdById).toBe(f.contributor.user.id);
    expect(note.content).toEqual(doc('First line', 'Second line'));

    const updated = ok(
      await f.manager.gql<{ updateNote: Note }>(UPDATE, {
        id: note.id,
        input: { content: doc('Rewritten'), archived: true },
      }),
    ).updateNote;
    expect(updated).toMatchObject({
      title: 'Call with Ana',
      contentText: 'Rewritten',
      archived: true,
      updatedById: f.manager.user.id,
      createdById: f.contributor.user.id,
    });
    const read = ok(await f.viewer.gql<{ note: Note & { project: { title: string } } }>(NOTE, { id: note.id })).note;
    expect(read.project.title).toBe('Interviews');

    ok(await f.viewer.gql('mutation($id: ID!) { setStarred(type: NOTE, id: $id, starred: true) }', { id: note.id }));
    expect(ok(await f.viewer.gql<{ note: Note }>(NOTE, { id: note.id })).note.starred).toBe(true);
    expect(ok(await f.contributor.gql<{ note: Note }>(NOTE, { id: note.id })).note.starred).toBe(false);
  });

  it('enforces the title and rich text limits with exact messages, changing nothing', async () => {
    const note = await createNote(f.contributor.gql, f.projectId, 'Limits');
    const long = failure(await f.contributor.gql(UPDATE, { id: note.id, input: { title: 'x'.repeat(201) } }));
    expect(long.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.title' });
    expect(long.message).toContain('A note title can be at most 200 characters long.');
    ok(await f.contributor.gql(UPDATE, { id: note.id, input: { title: 'y'.repeat(200) } }));
    const big = failure(
      await f.contributor.gql(UPDATE, { id: note.id, input: { content: doc('z'.repeat(5_000_000)) } }),
    );
    expect(big.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.content' });
    expect(big.message).toContain('content can be at most 5,000,000 characters (serialised)');
    expect(
      failure(await f.contributor.gql(UPDATE, { id: note.id, input: { content: 'plain' } })).extensions?.errorCode,
    ).toBe('BAD_USER_INPUT');
    expect(ok(await f.admin<{ note: Note }>(NOTE, { id: note.id })).note).toMatchObject({
      title: 'y'.repeat(200),
      contentText: '',
    });
  });

  it('refuses rich text of the wrong shape or nested too deep, naming the field', async () => {
    let deep: unknown = { type: 'text', text: 'deep' };
    for (let i = 0; i < 120; i++) deep = { type: 'paragraph', content: [deep] };
    const cases: Array<[unknown, string]> = [
      [{ type: 'doc', content: [null] }, 'content has a node that is not a JSON object with a type.'],
      [
        { type: 'doc', content: [{ type: 'paragraph', content: 'text' }] },
        'content has a node whose content is not a list.',
      ],
      [{ type: 'doc', content: [deep] }, 'content is nested more than 100 levels deep, the limit.'],
    ];
    for (const [content, message] of cases) {
      const refused = failure(
        await f.contributor.gql(CREATE, { input: { projectId: f.projectId, title: 'Odd shape', content } }),
      );
      expect(refused.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.content' });
      expect(refused.message).toContain(message);
    }
  });

  it('forbids viewers to create or update, and lets only managers lock, edit locked notes and delete', async () => {
    const note = await createNote(f.contributor.gql, f.projectId, 'Guarded');
    expect(
      failure(await f.viewer.gql(CREATE, { input: { projectId: f.projectId, title: 'Nope' } })).extensions?.errorCode,
    ).toBe('FORBIDDEN');
    expect(failure(await f.viewer.gql(UPDATE, { id: note.id, input: { title: 'Nope' } })).extensions?.errorCode).toBe(
      'FORBIDDEN',
    );
    expect(
      failure(await f.contributor.gql(UPDATE, { id: note.id, input: { locked: true } })).extensions?.errorCode,
    ).toBe('FORBIDDEN');
    expect(
      ok(await f.manager.gql<{ updateNote: Note }>(UPDATE, { id: note.id, input: { locked: true } })).updateNote.locked,
    ).toBe(true);
    const locked = failure(await f.contributor.gql(UPDATE, { id: note.id, input: { title: 'Sneaky' } }));
    expect(locked.extensions?.errorCode).toBe('FORBIDDEN');
    expect(locked.message).toBe('This note is locked; only managers and admins can edit it.');
    expect(
      ok(await f.admin<{ updateNote: Note }>(UPDATE, { id: note.id, input: { title: 'Admin edit' } })).updateNote.title,
    ).toBe('Admin edit');
    expect(failure(await f.contributor.gql(DELETE, { id: note.id })).extensions?.errorCode).toBe('FORBIDDEN');
    ok(await f.manager.gql(DELETE, { id: note.id }));
    expect(failure(await f.admin(NOTE, { id: note.id })).extensions?.errorCode).toBe('NOT_FOUND');
  });

  it('answers NOT_FOUND for notes of another workspace and of restricted projects', async () => {
    const other = await contentFixture(f.server, f.mail, []);
    const foreignProject = (await createProject(other.admin, 'Theirs')).id;
    const foreign = await createNote(other.admin, foreignProject, 'Theirs');
    expect(failure(await f.admin(NOTE, { id: foreign.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await f.admin(UPDATE, { id: foreign.id, input: { title: 'x' } })).extensions?.errorCode).toBe(
      'NOT_FOUND',
    );
    expect(
      failure(await f.admin(CREATE, { input: { projectId: foreignProject, title: 'x' } })).extensions?.errorCode,
    ).toBe('NOT_FOUND');
    expect(failure(await f.admin(NOTES, { p: foreignProject })).extensions?.errorCode).toBe('NOT_FOUND');

    const secret = (await createProject(f.admin, 'Secret')).id;
    const hidden = await createNote(f.admin, secret, 'Hidden');
    ok(
      await f.admin('mutation($id: ID!, $m: JSON!) { updateProjectAccess(projectId: $id, permissions: $m) { id } }', {
        id: secret,
        m: { groups: { markup: 'none' }, users: {} },
      }),
    );
    expect(failure(await f.contributor.gql(NOTE, { id: hidden.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await f.contributor.gql(NOTES, { p: secret })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await f.viewer.gql(NOTE, { id: hidden.id })).extensions?.errorCode).toBe('NOT_FOUND');
  });

  it('pages through a project’s notes by rank or by creation, with an opaque cursor', async () => {
    const p = (await createProject(f.admin, 'Paging')).id;
    const made: Note[] = [];
    for (let i = 0; i < 5; i++) made.push(await createNote(f.contributor.gql, p, `N${i}`, { archived: i === 4 }));
    const first = ok(await f.viewer.gql<Page>(NOTES, { p, first: 2 })).notes;
    expect(first.nodes.map((n) => n.title)).toEqual(['N0', 'N1']);
    expect(first.hasNextPage).toBe(true);
    const second = ok(await f.viewer.gql<Page>(NOTES, { p, first: 2, after: first.endCursor })).notes;
    expect(second.nodes.map((n) => n.title)).toEqual(['N2', 'N3']);
    const third = ok(await f.viewer.gql<Page>(NOTES, { p, first: 2, after: second.endCursor })).notes;
    expect(third).toEqual({ nodes: [expect.objectContaining({ title: 'N4' })], endCursor: null, hasNextPage: false });

    const newest = ok(await f.viewer.gql<Page>(NOTES, { p, first: 3, order: 'CREATED_DESC' })).notes;
    expect(newest.nodes.map((n) => n.title)).toEqual(['N4', 'N3', 'N2']);
    const older = ok(
      await f.viewer.gql<Page>(NOTES, { p, first: 3, order: 'CREATED_DESC', after: newest.endCursor }),
    ).notes;
    expect(older.nodes.map((n) => n.title)).toEqual(['N1', 'N0']);
    expect(ok(await f.viewer.gql<Page>(NOTES, { p, archived: true })).notes.nodes.map((n) => n.title)).toEqual(['N4']);

    ok(await f.manager.gql(DELETE, { id: made[1]!.id }));
    expect(ok(await f.viewer.gql<Page>(NOTES, { p })).notes.nodes.map((n) => n.title)).toEqual([
      'N0',
      'N2',
      'N3',
      'N4',
    ]);
    expect(failure(await f.viewer.gql(NOTES, { p, first: 201 })).extensions).toMatchObject({
      errorCode: 'BAD_USER_INPUT',
      field: 'first',
    });
    expect(failure(await f.viewer.gql(NOTES, { p, after: 'bogus' })).extensions).toMatchObject({
      errorCode: 'BAD_USER_INPUT',
      field: 'after',
    });
  });

  it('keeps drag-and-drop working after many drops between the same neighbours, rebalancing the ranks', async () => {
    const p = (await createProject(f.admin, 'Ranks')).id;
    const a = await createNote(f.contributor.gql, p, 'A');
    const b = await createNote(f.contributor.gql, p, 'B');
    // Each new note goes right after A, i.e. between A and the note dropped before it.
    const expected = ['A'];
    let next = b.id;
    const dropped: string[] = [];
    for (let i = 0; i < 40; i++) {
      const n = await createNote(f.contributor.gql, p, `X${i}`);
      ok(await f.contributor.gql(MOVE, { id: n.id, p: a.id, n: next }));
      next = n.id;
      dropped.unshift(`X${i}`);
    }
    expected.push(...dropped, 'B');
    const list = ok(await f.viewer.gql<Page>(NOTES, { p, first: 200 })).notes.nodes;
    expect(list.map((n) => n.title)).toEqual(expected);
    const ranks = list.map((n) => n.rank);
    for (let i = 1; i < ranks.length; i++) expect(ranks[i]! - ranks[i - 1]!).toBeGreaterThanOrEqual(2 ** -16);
    // Rebalancing happened: without it 40 halvings of 65536 would leave gaps far below 2^-16.
    expect(Math.max(...ranks)).toBeGreaterThan(65536);
  });
});
