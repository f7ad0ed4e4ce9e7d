import { describe, expect, it } from 'vitest';
import { contentFixture, createProject, doc, failure, ok, useResearchFixture, type Gql } from './content-support.ts';

const PERSON = 'id name email company title avatarUrl createdById';
const CREATE = `mutation($input: CreatePersonInput!) { createPerson(input: $input) { ${PERSON} } }`;
const UPDATE = `mutation($id: ID!, $input: UpdatePersonInput!) { updatePerson(id: $id, input: $input) { ${PERSON} } }`;
const DELETE = 'mutation($id: ID!) { deletePerson(id: $id) }';
const GET = `query($id: ID!) { person(id: $id) { ${PERSON} } }`;
const LIST = `query($search: String, $first: Int, $after: String) { people(search: $search, first: $first, after: $after) { nodes { ${PERSON} } endCursor hasNextPage } }`;
const ADD_TO_NOTE =
  'mutation($n: ID!, $p: ID!) { addPersonToNote(noteId: $n, personId: $p) { id people { id name } } }';
const REMOVE_FROM_NOTE =
  'mutation($n: ID!, $p: ID!) { removePersonFromNote(noteId: $n, personId: $p) { id people { id name } } }';
const ADD_TO_HIGHLIGHT =
  'mutation($h: ID!, $p: ID!) { addPersonToHighlight(highlightId: $h, personId: $p) { id people { name } } }';
const REMOVE_FROM_HIGHLIGHT =
  'mutation($h: ID!, $p: ID!) { removePersonFromHighlight(highlightId: $h, personId: $p) { id people { name } } }';
const PERSON_NOTES =
  'query($p: ID!, $first: Int, $after: String) { personNotes(personId: $p, first: $first, after: $after) { nodes { id title } endCursor hasNextPage } }';
const PERSON_HIGHLIGHTS =
  'query($p: ID!) { personHighlights(personId: $p) { nodes { id text people { name } } hasNextPage } }';
const NOTES_WITH_PEOPLE =
  'query($p: ID!) { notes(projectId: $p, orderBy: CREATED_ASC) { nodes { title people { name } } } }';

interface Person {
  id: string;
  name: string;
  email: string | null;
  company: string | null;
  title: string | null;
  avatarUrl: string | null;
}
interface Page {
  people: { nodes: Person[]; endCursor: string | null; hasNextPage: boolean };
}

async function createPerson(gql: Gql, input: Record<string, unknown>): Promise<Person> {
  return ok(await gql<{ createPerson: Person }>(CREATE, { input })).createPerson;
}

async function createNote(gql: Gql, projectId: string, title: string, text = 'They said something'): Promise<string> {
  return ok(
    await gql<{ createNote: { id: string } }>(
      'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
      {
        input: { projectId, title, content: doc(text) },
      },
    ),
  ).createNote.id;
}

describe('people (contacts)', () => {
  const f = useResearchFixture('Interviews');

  it('creates, reads, updates and clears a person’s details', async () => {
    const ana = await createPerson(f.contributor.gql, {
      name: '  Ana Lee ',
      email: 'Ana@Example.com',
      company: 'Acme',
      title: 'Buyer',
      avatarUrl: 'https://example.com/a.png',
    });
    expect(ana).toMatchObject({
      name: 'Ana Lee',
      email: 'Ana@Example.com',
      company: 'Acme',
      title: 'Buyer',
      avatarUrl: 'https://example.com/a.png',
      createdById: f.contributor.user.id,
    });
    expect(ok(await f.viewer.gql<{ person: Person }>(GET, { id: ana.id })).person.name).toBe('Ana Lee');

    const renamed = ok(
      await f.contributor.gql<{ updatePerson: Person }>(UPDATE, {
        id: ana.id,
        input: { name: 'Ana Lee-Park', company: null, title: '' },
      }),
    ).updatePerson;
    expect(renamed).toMatchObject({
      name: 'Ana Lee-Park',
      email: 'Ana@Example.com',
      company: null,
      title: null,
      avatarUrl: 'https://example.com/a.png',
    });
    const noEmail = ok(
      await f.contributor.gql<{ updatePerson: Person }>(UPDATE, { id: ana.id, input: { email: '' } }),
    ).updatePerson;
    expect(noEmail.email).toBeNull();
  });

  it('enforces the limits with clear messages and writes nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'x'.repeat(301) }, 'input.name: A person’s name can be at most 300 characters long.'],
      [{ name: '   ' }, 'input.name: Give the person a name.'],
      [
        { name: 'Long mail', email: `${'a'.repeat(309)}@example.com` },
        'input.email: An email address can be at most 320 characters long.',
      ],
      [{ name: 'Bad mail', email: 'not-an-email' }, 'input.email: Enter a valid email address, like name@example.com.'],
      [
        { name: 'Big co', company: 'c'.repeat(201) },
        'input.company: A company name can be at most 200 characters long.',
      ],
      [
        { name: 'Avatar', avatarUrl: 'ftp://example.com/a.png' },
        'input.avatarUrl: An avatar URL must start with http:// or https://.',
      ],
    ];
    for (const [input, message] of cases) {
      const error = failure(await f.contributor.gql(CREATE, { input }));
      expect(error.extensions?.errorCode).toBe('BAD_USER_INPUT');
      expect(error.message).toBe(message);
    }
    for (const search of ['Long mail', 'Bad mail', 'Big co', 'Avatar']) {
      expect(ok(await f.admin<Page>(LIST, { search })).people.nodes).toEqual([]);
    }
    // Exactly at the limits is fine.
    const edge = await createPerson(f.contributor.gql, {
      name: 'n'.repeat(300),
      email: `${'a'.repeat(308)}@example.com`,
    });
    expect(edge.email).toHaveLength(320);
    const found = ok(await f.admin<Page>(LIST, { search: 'nnnnn' })).people.nodes;
    expect(found.map((p) => p.id)).toEqual([edge.id]);
  });

  it('keeps email addresses unique per workspace whatever their case, until the person is trashed', async () => {
    const first = await createPerson(f.contributor.gql, { name: 'Unique One', email: 'unique@example.com' });
    const dup = failure(
      await f.contributor.gql(CREATE, { input: { name: 'Unique Two', email: 'UNIQUE@example.com' } }),
    );
    expect(dup.extensions?.errorCode).toBe('BAD_USER_INPUT');
    expect(dup.message).toBe('Another person in this workspace already has the email address UNIQUE@example.com.');
    const other = await createPerson(f.contributor.gql, { name: 'Unique Two' });
    expect(
      failure(await f.contributor.gql(UPDATE, { id: other.id, input: { email: 'Unique@Example.com' } })).extensions
        ?.errorCode,
    ).toBe('BAD_USER_INPUT');
    // Another workspace may have the same address.
    const elsewhere = await contentFixture(f.server, f.mail, []);
    expect((await createPerson(elsewhere.admin, { name: 'Same', email: 'unique@example.com' })).email).toBe(
      'unique@example.com',
    );

    ok(await f.manager.gql(DELETE, { id: first.id }));
    expect((await createPerson(f.contributor.gql, { name: 'Unique Three', email: 'unique@example.com' })).name).toBe(
      'Unique Three',
    );
  });

  it('lets viewers read but not create, contributors edit but not delete, managers delete to the trash', async () => {
    const viewerTry = failure(await f.viewer.gql(CREATE, { input: { name: 'Nope' } }));
    expect(viewerTry.extensions?.errorCode).toBe('FORBIDDEN');
    const p = await createPerson(f.contributor.gql, { name: 'Deletable' });
    expect(failure(await f.viewer.gql(UPDATE, { id: p.id, input: { name: 'x' } })).extensions?.errorCode).toBe(
      'FORBIDDEN',
    );
    expect(failure(await f.contributor.gql(DELETE, { id: p.id })).extensions?.errorCode).toBe('FORBIDDEN');
    expect(ok(await f.manager.gql<{ deletePerson: boolean }>(DELETE, { id: p.id })).deletePerson).toBe(true);
    expect(failure(await f.viewer.gql(GET, { id: p.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await f.manager.gql(DELETE, { id: p.id })).extensions?.errorCode).toBe('NOT_FOUND');
    const names = ok(await f.admin<Page>(LIST, { search: 'Deletable' })).people.nodes;
    expect(names).toEqual([]);
  });

  it('lists people by name, searching name and email, a page at a time', async () => {
    const ws = await contentFixture(f.server, f.mail, []);
    for (const [name, email] of [
      ['Carla', 'carla@shop.test'],
      ['bob', null],
      ['Alice', 'alice@zeta.test'],
      ['Dora', 'dora@ZETA.test'],
    ] as const) {
      await createPerson(ws.admin, { name, email });
    }
    const page1 = ok(await ws.admin<Page>(LIST, { first: 2 })).people;
    expect(page1.hasNextPage).toBe(true);
    const page2 = ok(await ws.admin<Page>(LIST, { first: 2, after: page1.endCursor })).people;
    expect(page2.hasNextPage).toBe(false);
    const all = [...page1.nodes, ...page2.nodes].map((p) => p.name);
    expect(all).toHaveLength(4);
    expect(new Set(all)).toEqual(new Set(['Alice', 'bob', 'Carla', 'Dora']));
    expect(
      ok(await ws.admin<Page>(LIST, { search: 'zeta' }))
        .people.nodes.map((p) => p.name)
        .sort(),
    ).toEqual(['Alice', 'Dora']);
    expect(ok(await ws.admin<Page>(LIST, { search: 'BO' })).people.nodes.map((p) => p.name)).toEqual(['bob']);
    expect(ok(await ws.admin<Page>(LIST, { search: '100%' })).people.nodes).toEqual([]);
    expect(failure(await ws.admin(LIST, { first: 201 })).message).toBe('first: A page can have at most 200 items.');
    expect(failure(await ws.admin(LIST, { after: 'bogus' })).extensions?.errorCode).toBe('BAD_USER_INPUT');
  });

  it('answers NOT_FOUND for people of another workspace', async () => {
    const other = await contentFixture(f.server, f.mail, []);
    const theirs = await createPerson(other.admin, { name: 'Theirs' });
    expect(failure(await f.admin(GET, { id: theirs.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await f.admin(UPDATE, { id: theirs.id, input: { name: 'Mine' } })).extensions?.errorCode).toBe(
      'NOT_FOUND',
    );
    expect(failure(await f.admin(DELETE, { id: theirs.id })).extensions?.errorCode).toBe('NOT_FOUND');
    const note = await createNote(f.admin, f.projectId, 'Mine');
    expect(failure(await f.admin(ADD_TO_NOTE, { n: note, p: theirs.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(ok(await other.admin<Page>(LIST, {})).people.nodes.map((p) => p.name)).toEqual(['Theirs']);
  });

  it('links people to notes and highlights, and lists a person’s notes and highlights', async () => {
    const project = (await createProject(f.admin, 'Linked')).id;
    const zoe = await createPerson(f.contributor.gql, { name: 'Zoe' });
    const yan = await createPerson(f.contributor.gql, { name: 'Yan' });
    const n1 = await createNote(f.contributor.gql, project, 'First', 'Checkout is slow');
    const n2 = await createNote(f.contributor.gql, project, 'Second');
    const n3 = await createNote(f.contributor.gql, project, 'Third');

    const linked = ok(
      await f.contributor.gql<{ addPersonToNote: { people: Array<{ name: string }> } }>(ADD_TO_NOTE, {
        n: n1,
        p: zoe.id,
      }),
    ).addPersonToNote;
    expect(linked.people.map((p) => p.name)).toEqual(['Zoe']);
    // Linking twice changes nothing.
    ok(await f.contributor.gql(ADD_TO_NOTE, { n: n1, p: zoe.id }));
    ok(await f.contributor.gql(ADD_TO_NOTE, { n: n1, p: yan.id }));
    ok(await f.contributor.gql(ADD_TO_NOTE, { n: n2, p: zoe.id }));
    ok(await f.contributor.gql(ADD_TO_NOTE, { n: n3, p: yan.id }));
    expect(failure(await f.viewer.gql(ADD_TO_NOTE, { n: n3, p: zoe.id })).extensions?.errorCode).toBe('FORBIDDEN');

    // Every note of the page with its people, names in order.
    const notes = ok(
      await f.viewer.gql<{ notes: { nodes: Array<{ title: string; people: Array<{ name: string }> }> } }>(
        NOTES_WITH_PEOPLE,
        { p: project },
      ),
    ).notes.nodes;
    expect(notes.map((n) => [n.title, n.people.map((p) => p.name)])).toEqual([
      ['First', ['Yan', 'Zoe']],
      ['Second', ['Zoe']],
      ['Third', ['Yan']],
    ]);

    const page1 = ok(
      await f.viewer.gql<{ personNotes: { nodes: Array<{ title: string }>; endCursor: string; hasNextPage: boolean } }>(
        PERSON_NOTES,
        { p: zoe.id, first: 1 },
      ),
    ).personNotes;
    expect(page1.nodes.map((n) => n.title)).toEqual(['Second']);
    expect(page1.hasNextPage).toBe(true);
    const page2 = ok(
      await f.viewer.gql<{ personNotes: { nodes: Array<{ title: string }>; hasNextPage: boolean } }>(PERSON_NOTES, {
        p: zoe.id,
        first: 1,
        after: page1.endCursor,
      }),
    ).personNotes;
    expect(page2.nodes.map((n) => n.title)).toEqual(['First']);
    expect(page2.hasNextPage).toBe(false);

    const unlinked = ok(
      await f.contributor.gql<{ removePersonFromNote: { people: Array<{ name: string }> } }>(REMOVE_FROM_NOTE, {
        n: n1,
        p: yan.id,
      }),
    ).removePersonFromNote;
    expect(unlinked.people.map((p) => p.name)).toEqual(['Zoe']);

    const h = ok(
      await f.contributor.gql<{ createHighlight: { id: string } }>(
        'mutation($input: CreateHighlightInput!) { createHighlight(input: $input) { id } }',
        {
          input: { noteId: n1, startOffset: 0, endOffset: 8 },
        },
      ),
    ).createHighlight.id;
    const withPerson = ok(
      await f.contributor.gql<{ addPersonToHighlight: { people: Array<{ name: string }> } }>(ADD_TO_HIGHLIGHT, {
        h,
        p: yan.id,
      }),
    ).addPersonToHighlight;
    expect(withPerson.people.map((p) => p.name)).toEqual(['Yan']);
    const ofYan = ok(
      await f.viewer.gql<{
        personHighlights: { nodes: Array<{ id: string; text: string; people: Array<{ name: string }> }> };
      }>(PERSON_HIGHLIGHTS, { p: yan.id }),
    ).personHighlights.nodes;
    expect(ofYan).toEqual([{ id: h, text: 'Checkout', people: [{ name: 'Yan' }] }]);
    ok(await f.contributor.gql(REMOVE_FROM_HIGHLIGHT, { h, p: yan.id }));
    expect(
      ok(await f.viewer.gql<{ personHighlights: { nodes: unknown[] } }>(PERSON_HIGHLIGHTS, { p: yan.id }))
        .personHighlights.nodes,
    ).toEqual([]);

    // A trashed person drops off the notes they were linked to.
    ok(await f.manager.gql(DELETE, { id: zoe.id }));
    const after = ok(
      await f.viewer.gql<{ notes: { nodes: Array<{ title: string; people: Array<{ name: string }> }> } }>(
        NOTES_WITH_PEOPLE,
        { p: project },
      ),
    ).notes.nodes;
    expect(after.map((n) => n.people.map((p) => p.name))).toEqual([[], [], ['Yan']]);
  });

  it('hides notes and highlights of projects the caller cannot read, and answers NOT_FOUND for linking there', async () => {
    const secret = (await createProject(f.admin, 'Secret people')).id;
    const open = (await createProject(f.admin, 'Open people')).id;
    const person = await createPerson(f.admin, { name: 'Quinn' });
    const hiddenNote = await createNote(f.admin, secret, 'Hidden');
    const openNote = await createNote(f.admin, open, 'Visible');
    ok(await f.admin(ADD_TO_NOTE, { n: hiddenNote, p: person.id }));
    ok(await f.admin(ADD_TO_NOTE, { n: openNote, p: person.id }));
    ok(
      await f.admin('mutation($id: ID!, $m: JSON!) { updateProjectAccess(projectId: $id, permissions: $m) { id } }', {
        id: secret,
        m: { groups: { markup: 'none' }, users: {} },
      }),
    );

    expect(
      ok(await f.admin<{ personNotes: { nodes: Array<{ title: string }> } }>(PERSON_NOTES, { p: person.id }))
        .personNotes.nodes.map((n) => n.title)
        .sort(),
    ).toEqual(['Hidden', 'Visible']);
    expect(
      ok(
        await f.contributor.gql<{ personNotes: { nodes: Array<{ title: string }> } }>(PERSON_NOTES, { p: person.id }),
      ).personNotes.nodes.map((n) => n.title),
    ).toEqual(['Visible']);
    expect(failure(await f.contributor.gql(ADD_TO_NOTE, { n: hiddenNote, p: person.id })).extensions?.errorCode).toBe(
      'NOT_FOUND',
    );
    expect(
      failure(await f.contributor.gql(REMOVE_FROM_NOTE, { n: hiddenNote, p: person.id })).extensions?.errorCode,
    ).toBe('NOT_FOUND');
  });
});
