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

const TRASH = 'query($t: TrashItemType) { trash(type: $t) { type id title projectId deletedAt } }';
const RESTORE = 'mutation($t: TrashItemType!, $id: ID!) { restore(type: $t, id: $id) }';
const NOTES = 'query($p: ID!) { notes(projectId: $p) { nodes { id title } } }';
const PROJECTS = '{ projects { id } }';

interface TrashItem {
  type: string;
  id: string;
  title: string;
  projectId: string | null;
}

describe('trash', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let f: ContentFixture;
  beforeAll(async () => {
    ({ server, mail } = await startResearchServer());
    f = await contentFixture(server, mail);
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  const trash = async () => ok(await f.manager.gql<{ trash: TrashItem[] }>(TRASH)).trash;

  it('trashes a project with its notes and restores them together', async () => {
    const p = await createProject(f.contributor.gql, 'Going away');
    const note = ok(
      await f.contributor.gql<{ createNote: { id: string } }>(
        'mutation($p: ID!) { createNote(input: { projectId: $p, title: "Kept note" }) { id } }',
        { p: p.id },
      ),
    ).createNote;
    ok(await f.manager.gql('mutation($id: ID!) { deleteProject(id: $id) }', { id: p.id }));

    expect(
      ok(await f.contributor.gql<{ projects: Array<{ id: string }> }>(PROJECTS)).projects.map((x) => x.id),
    ).not.toContain(p.id);
    expect(failure(await f.contributor.gql(NOTES, { p: p.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(
      failure(await f.contributor.gql('query($id: ID!) { note(id: $id) { id } }', { id: note.id })).extensions
        ?.errorCode,
    ).toBe('NOT_FOUND');
    const items = await trash();
    expect(items).toContainEqual(
      expect.objectContaining({ type: 'PROJECT', id: p.id, title: 'Going away', projectId: p.id }),
    );
    // The notes were not deleted one by one: they are not in the trash themselves.
    expect(items.map((i) => i.id)).not.toContain(note.id);

    ok(await f.manager.gql(RESTORE, { t: 'PROJECT', id: p.id }));
    expect(
      ok(await f.contributor.gql<{ notes: { nodes: Array<{ id: string }> } }>(NOTES, { p: p.id })).notes.nodes.map(
        (n) => n.id,
      ),
    ).toEqual([note.id]);
    expect((await trash()).map((i) => i.id)).not.toContain(p.id);
  });

  it('restores notes, insights, highlights and folders, each to where it was', async () => {
    const p = await createProject(f.admin, 'Keeper');
    const note = ok(
      await f.admin<{ createNote: { id: string } }>(
        'mutation($p: ID!, $c: JSON) { createNote(input: { projectId: $p, title: "N", content: $c }) { id } }',
        { p: p.id, c: doc('quote me') },
      ),
    ).createNote;
    const insight = ok(
      await f.admin<{ createInsight: { id: string } }>(
        'mutation($p: ID!) { createInsight(input: { projectId: $p, title: "I" }) { id } }',
        { p: p.id },
      ),
    ).createInsight;
    const h = ok(
      await f.admin<{ createHighlight: { id: string } }>(
        'mutation($n: ID!) { createHighlight(input: { noteId: $n, startOffset: 0, endOffset: 5 }) { id } }',
        { n: note.id },
      ),
    ).createHighlight;
    const outer = ok(
      await f.admin<{ createFolder: { id: string } }>('mutation { createFolder(title: "Outer") { id } }'),
    ).createFolder;
    const inner = ok(
      await f.admin<{ createFolder: { id: string } }>(
        'mutation($p: ID!) { createFolder(title: "Inner", parentId: $p) { id } }',
        { p: outer.id },
      ),
    ).createFolder;

    ok(await f.admin('mutation($id: ID!) { deleteHighlight(id: $id) }', { id: h.id }));
    ok(await f.admin('mutation($id: ID!) { deleteNote(id: $id) }', { id: note.id }));
    ok(await f.admin('mutation($id: ID!) { deleteInsight(id: $id) }', { id: insight.id }));
    ok(await f.admin('mutation($id: ID!) { deleteFolder(id: $id) }', { id: outer.id }));
    const items = await trash();
    for (const [type, id] of [
      ['HIGHLIGHT', h.id],
      ['NOTE', note.id],
      ['INSIGHT', insight.id],
      ['FOLDER', outer.id],
      ['FOLDER', inner.id],
    ]) {
      expect(items).toContainEqual(expect.objectContaining({ type, id }));
    }
    expect(
      ok(await f.manager.gql<{ trash: TrashItem[] }>(TRASH, { t: 'NOTE' })).trash.every((i) => i.type === 'NOTE'),
    ).toBe(true);

    // A highlight comes back only with its note; a folder inside a trashed folder only with it.
    expect(failure(await f.manager.gql(RESTORE, { t: 'HIGHLIGHT', id: h.id })).message).toBe('Restore its note first.');
    expect(failure(await f.manager.gql(RESTORE, { t: 'FOLDER', id: inner.id })).extensions?.errorCode).toBe(
      'BAD_USER_INPUT',
    );
    ok(await f.manager.gql(RESTORE, { t: 'NOTE', id: note.id }));
    ok(await f.manager.gql(RESTORE, { t: 'HIGHLIGHT', id: h.id }));
    ok(await f.manager.gql(RESTORE, { t: 'INSIGHT', id: insight.id }));
    ok(await f.manager.gql(RESTORE, { t: 'FOLDER', id: outer.id }));
    const children = ok(
      await f.viewer.gql<{ folder: { children: Array<{ id: string }> } }>(
        'query($id: ID!) { folder(id: $id) { children { id } } }',
        { id: outer.id },
      ),
    ).folder.children;
    expect(children.map((c) => c.id)).toEqual([inner.id]);
    const highlights = ok(
      await f.viewer.gql<{ note: { highlights: Array<{ id: string }> } }>(
        'query($id: ID!) { note(id: $id) { highlights { id } } }',
        { id: note.id },
      ),
    ).note.highlights;
    expect(highlights.map((x) => x.id)).toEqual([h.id]);
    ok(await f.viewer.gql('query($id: ID!) { insight(id: $id) { id } }', { id: insight.id }));
    expect(failure(await f.manager.gql(RESTORE, { t: 'NOTE', id: note.id })).extensions?.errorCode).toBe('NOT_FOUND');
  });

  it('is for managers and admins only, and only for their own workspace', async () => {
    expect(failure(await f.contributor.gql(TRASH)).extensions?.errorCode).toBe('FORBIDDEN');
    expect(failure(await f.viewer.gql(TRASH)).extensions?.errorCode).toBe('FORBIDDEN');
    const p = await createProject(f.admin, 'Mine to restore');
    ok(await f.admin('mutation($id: ID!) { deleteProject(id: $id) }', { id: p.id }));
    expect(failure(await f.contributor.gql(RESTORE, { t: 'PROJECT', id: p.id })).extensions?.errorCode).toBe(
      'FORBIDDEN',
    );
    const other = await contentFixture(server, mail, []);
    expect(ok(await other.admin<{ trash: TrashItem[] }>(TRASH)).trash).toEqual([]);
    expect(failure(await other.admin(RESTORE, { t: 'PROJECT', id: p.id })).extensions?.errorCode).toBe('NOT_FOUND');
  });

  it('restores a project only within the 200-project limit', async () => {
    const other = await contentFixture(server, mail, []);
    const trashed = await createProject(other.admin, 'Trashed');
    ok(await other.admin('mutation($id: ID!) { deleteProject(id: $id) }', { id: trashed.id }));
    await server.fieldbook.db
      .owner('projects')
      .insert(Array.from({ length: 200 }, (_, i) => ({ workspace_id: other.ws.id, title: `Filler ${i}`, rank: i })));
    const full = failure(await other.admin(RESTORE, { t: 'PROJECT', id: trashed.id }));
    expect(full.message).toBe('A workspace can have at most 200 projects.');
    expect(ok(await other.admin<{ trash: TrashItem[] }>(TRASH)).trash.map((i) => i.id)).toEqual([trashed.id]);
  });
  it('lists people in the trash for managers and restores them, unless their address is taken', async () => {
    const create = async (name: string, email: string) =>
      ok(
        await f.contributor.gql<{ createPerson: { id: string } }>(
          'mutation($input: CreatePersonInput!) { createPerson(input: $input) { id } }',
          { input: { name, email } },
        ),
      ).createPerson;
    const kim = await create('Kim Park', 'kim@example.com');
    const lee = await create('Lee Wong', 'lee@example.com');
    ok(await f.manager.gql('mutation($id: ID!) { deletePerson(id: $id) }', { id: kim.id }));
    ok(await f.manager.gql('mutation($id: ID!) { deletePerson(id: $id) }', { id: lee.id }));

    const people = ok(await f.manager.gql<{ trash: TrashItem[] }>(TRASH, { t: 'PERSON' })).trash;
    expect(people).toEqual([
      expect.objectContaining({ type: 'PERSON', id: lee.id, title: 'Lee Wong', projectId: null }),
      expect.objectContaining({ type: 'PERSON', id: kim.id, title: 'Kim Park', projectId: null }),
    ]);
    expect(await trash()).toContainEqual(expect.objectContaining({ type: 'PERSON', id: kim.id }));
    expect(failure(await f.contributor.gql(TRASH, { t: 'PERSON' })).extensions?.errorCode).toBe('FORBIDDEN');
    expect(failure(await f.contributor.gql(RESTORE, { t: 'PERSON', id: kim.id })).extensions?.errorCode).toBe(
      'FORBIDDEN',
    );
    expect(
      failure(await f.viewer.gql('query($id: ID!) { person(id: $id) { id } }', { id: kim.id })).extensions?.errorCode,
    ).toBe('NOT_FOUND');

    ok(await f.manager.gql(RESTORE, { t: 'PERSON', id: kim.id }));
    expect(
      ok(
        await f.viewer.gql<{ person: { name: string } }>('query($id: ID!) { person(id: $id) { name } }', {
          id: kim.id,
        }),
      ).person.name,
    ).toBe('Kim Park');
    expect((await trash()).map((i) => i.id)).not.toContain(kim.id);
    expect(failure(await f.manager.gql(RESTORE, { t: 'PERSON', id: kim.id })).extensions?.errorCode).toBe('NOT_FOUND');

    // Someone else took Lee's address meanwhile: the restore is refused and changes nothing.
    await create('Lee W.', 'LEE@example.com');
    const taken = failure(await f.manager.gql(RESTORE, { t: 'PERSON', id: lee.id }));
    expect(taken.message).toBe(
      'Another person in this workspace now has the email address lee@example.com. Change or delete that person first.',
    );
    expect(ok(await f.manager.gql<{ trash: TrashItem[] }>(TRASH, { t: 'PERSON' })).trash.map((i) => i.id)).toEqual([
      lee.id,
    ]);
  });
});
