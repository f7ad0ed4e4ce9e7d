import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import {
  contentFixture,
  createProject,
  doc,
  failure,
  ok,
  startResearchServer,
  type ContentFixture,
} from './content-support.ts';

const FIELDS = 'id projectId noteId text startOffset endOffset color displayColor createdById';
const CREATE = `mutation($input: CreateHighlightInput!) { createHighlight(input: $input) { ${FIELDS} } }`;
const LIST = `query($noteId: ID, $projectId: ID, $first: Int, $after: String) {
  highlights(noteId: $noteId, projectId: $projectId, first: $first, after: $after) { nodes { ${FIELDS} } endCursor hasNextPage }
}`;
const NOTE_HIGHLIGHTS = 'query($id: ID!) { note(id: $id) { highlights { text startOffset } } }';
const DELETE = 'mutation($id: ID!) { deleteHighlight(id: $id) }';

interface Highlight {
  id: string;
  noteId: string;
  projectId: string;
  text: string;
  startOffset: number;
  endOffset: number;
  color: string | null;
  displayColor: string | null;
}
interface Page {
  highlights: { nodes: Highlight[]; endCursor: string | null; hasNextPage: boolean };
}

describe('highlights', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let f: ContentFixture;
  let projectId: string;
  let noteId: string;
  const TEXT = 'The checkout is confusing\nI gave up twice';
  beforeAll(async () => {
    ({ server, mail } = await startResearchServer());
    f = await contentFixture(server, mail);
    projectId = (await createProject(f.admin, 'Checkout')).id;
    const note = ok(
      await f.admin<{ createNote: { id: string; contentText: string } }>(
        'mutation($input: CreateNoteInput!) { createNote(input: $input) { id contentText } }',
        {
          input: { projectId, title: 'Interview', content: doc('The checkout is confusing', 'I gave up twice') },
        },
      ),
    ).createNote;
    expect(note.contentText).toBe(TEXT);
    noteId = note.id;
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  it('highlights a span of the note’s text, keeping the slice and a colour at alpha 0.2', async () => {
    const h = ok(
      await f.contributor.gql<{ createHighlight: Highlight }>(CREATE, {
        input: { noteId, startOffset: 4, endOffset: 25, color: '#F80' },
      }),
    ).createHighlight;
    expect(h).toMatchObject({
      noteId,
      projectId,
      text: 'checkout is confusing',
      startOffset: 4,
      endOffset: 25,
      color: '#ff8800',
      displayColor: 'rgba(255, 136, 0, 0.2)',
    });
    const plain = ok(
      await f.contributor.gql<{ createHighlight: Highlight }>(CREATE, {
        input: { noteId, startOffset: 26, endOffset: TEXT.length },
      }),
    ).createHighlight;
    expect(plain).toMatchObject({ text: 'I gave up twice', color: null, displayColor: null });

    const ofNote = ok(await f.viewer.gql<Page>(LIST, { noteId })).highlights.nodes;
    expect(ofNote.map((x) => x.text)).toEqual(['checkout is confusing', 'I gave up twice']);
    const ofProject = ok(await f.viewer.gql<Page>(LIST, { projectId, first: 1 })).highlights;
    expect(ofProject.nodes.map((x) => x.text)).toEqual(['I gave up twice']);
    const more = ok(await f.viewer.gql<Page>(LIST, { projectId, first: 1, after: ofProject.endCursor })).highlights;
    expect(more.nodes.map((x) => x.text)).toEqual(['checkout is confusing']);
    expect(more.hasNextPage).toBe(false);
    expect(
      ok(await f.viewer.gql<{ note: { highlights: Array<{ text: string }> } }>(NOTE_HIGHLIGHTS, { id: noteId })).note
        .highlights,
    ).toHaveLength(2);
  });

  it('validates offsets against the text, changing nothing', async () => {
    const before = ok(await f.admin<Page>(LIST, { noteId })).highlights.nodes.length;
    const past = failure(
      await f.contributor.gql(CREATE, { input: { noteId, startOffset: 0, endOffset: TEXT.length + 1 } }),
    );
    expect(past.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.endOffset' });
    expect(past.message).toBe(`endOffset must be at most ${TEXT.length}, the length of the note's text.`);
    expect(
      failure(await f.contributor.gql(CREATE, { input: { noteId, startOffset: 5, endOffset: 5 } })).message,
    ).toContain('endOffset must be greater than startOffset.');
    expect(
      failure(await f.contributor.gql(CREATE, { input: { noteId, startOffset: -1, endOffset: 5 } })).extensions?.field,
    ).toBe('input.startOffset');
    expect(
      failure(await f.contributor.gql(CREATE, { input: { noteId, startOffset: 3, endOffset: 4 } })).message,
    ).toContain('not only spaces');
    expect(
      failure(await f.contributor.gql(CREATE, { input: { noteId, startOffset: 0, endOffset: 3, color: 'teal' } }))
        .extensions?.field,
    ).toBe('input.color');
    expect(failure(await f.admin(LIST, {})).extensions?.errorCode).toBe('BAD_USER_INPUT');
    expect(ok(await f.admin<Page>(LIST, { noteId })).highlights.nodes.length).toBe(before);
  });

  it('lets viewers read but not highlight; deletes; NOT_FOUND across workspaces', async () => {
    expect(
      failure(await f.viewer.gql(CREATE, { input: { noteId, startOffset: 0, endOffset: 3 } })).extensions?.errorCode,
    ).toBe('FORBIDDEN');
    const h = ok(
      await f.contributor.gql<{ createHighlight: Highlight }>(CREATE, {
        input: { noteId, startOffset: 0, endOffset: 3 },
      }),
    ).createHighlight;
    expect(failure(await f.viewer.gql(DELETE, { id: h.id })).extensions?.errorCode).toBe('FORBIDDEN');
    ok(await f.contributor.gql(DELETE, { id: h.id }));
    expect(ok(await f.admin<Page>(LIST, { noteId })).highlights.nodes.map((x) => x.id)).not.toContain(h.id);
    expect(failure(await f.contributor.gql(DELETE, { id: h.id })).extensions?.errorCode).toBe('NOT_FOUND');

    const other = await contentFixture(server, mail, []);
    expect(
      failure(await other.admin(CREATE, { input: { noteId, startOffset: 0, endOffset: 3 } })).extensions?.errorCode,
    ).toBe('NOT_FOUND');
    expect(failure(await other.admin(LIST, { noteId })).extensions?.errorCode).toBe('NOT_FOUND');
    const mine = ok(await f.admin<Page>(LIST, { noteId })).highlights.nodes[0]!;
    expect(failure(await other.admin(DELETE, { id: mine.id })).extensions?.errorCode).toBe('NOT_FOUND');
  });

  it('hides the highlights of a trashed note', async () => {
    const note = ok(
      await f.admin<{ createNote: { id: string } }>(
        'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
        { input: { projectId, content: doc('Short lived') } },
      ),
    ).createNote;
    ok(await f.admin(CREATE, { input: { noteId: note.id, startOffset: 0, endOffset: 5 } }));
    const count = async () =>
      ok(await f.admin<Page>(LIST, { projectId, first: 200 })).highlights.nodes.filter((x) => x.noteId === note.id)
        .length;
    expect(await count()).toBe(1);
    ok(await f.admin('mutation($id: ID!) { deleteNote(id: $id) }', { id: note.id }));
    expect(await count()).toBe(0);
  });
});
