import { describe, expect, it } from 'vitest';
import { contentFixture, createProject, failure, ok, useResearchFixture, type Gql } from './content-support.ts';

const FIELDS = 'id title parentId rank path pathSegments ancestry';
const CREATE = `mutation($t: String!, $p: ID) { createFolder(title: $t, parentId: $p) { ${FIELDS} } }`;
const RENAME = `mutation($id: ID!, $t: String!) { renameFolder(id: $id, title: $t) { ${FIELDS} } }`;
const MOVE = `mutation($id: ID!, $parent: ID, $prev: ID, $next: ID) { moveFolder(id: $id, parentId: $parent, previousId: $prev, nextId: $next) { ${FIELDS} } }`;
const FOLDER = `query($id: ID!) { folder(id: $id) { ${FIELDS} parent { id } children { title } projects { id title } } }`;
const FOLDERS = `query($p: ID) { folders(parentId: $p) { id title } }`;
const DELETE = 'mutation($id: ID!) { deleteFolder(id: $id) }';

interface Folder {
  id: string;
  title: string;
  parentId: string | null;
  rank: number;
  path: string;
  pathSegments: string[];
  ancestry: string[];
}

async function createFolder(gql: Gql, title: string, parentId?: string): Promise<Folder> {
  return ok(await gql<{ createFolder: Folder }>(CREATE, { t: title, p: parentId })).createFolder;
}

describe('folders', () => {
  const f = useResearchFixture();

  it('nests folders and shows their path by the display rule', async () => {
    const root = await createFolder(f.contributor.gql, 'Customer research programme 2024');
    expect(root).toMatchObject({
      parentId: null,
      path: 'Customer research programm...',
      ancestry: ['Customer research programme 2024'],
    });
    const b = await createFolder(f.contributor.gql, 'B', root.id);
    const c = await createFolder(f.contributor.gql, 'C', b.id);
    expect(c.path).toBe('Customer research programm... / B / C');
    const d = await createFolder(f.contributor.gql, 'Deep', c.id);
    expect(d.pathSegments).toEqual(['Customer research programm...', '...', 'Deep']);
    expect(d.path).toBe('Customer research programm... / ... / Deep');
    expect(d.ancestry).toEqual(['Customer research programme 2024', 'B', 'C', 'Deep']);

    const seen = ok(
      await f.viewer.gql<{ folder: Folder & { parent: { id: string }; children: Array<{ title: string }> } }>(FOLDER, {
        id: b.id,
      }),
    ).folder;
    expect(seen.parent.id).toBe(root.id);
    expect(seen.children.map((x) => x.title)).toEqual(['C']);
  });

  it('holds projects, renames, reorders and moves folders, refusing cycles', async () => {
    const research = await createFolder(f.contributor.gql, 'Research');
    const p = await createProject(f.contributor.gql, 'Filed project', { folderId: research.id });
    const read = ok(
      await f.viewer.gql<{ folder: { projects: Array<{ id: string }> } }>(FOLDER, { id: research.id }),
    ).folder;
    expect(read.projects.map((x) => x.id)).toEqual([p.id]);
    const out = ok(
      await f.contributor.gql<{ updateProject: { folderId: string | null } }>(
        'mutation($id: ID!) { updateProject(id: $id, input: { folderId: null }) { folderId } }',
        { id: p.id },
      ),
    );
    expect(out.updateProject.folderId).toBeNull();

    expect(
      ok(await f.contributor.gql<{ renameFolder: Folder }>(RENAME, { id: research.id, t: ' Discovery ' })).renameFolder
        .title,
    ).toBe('Discovery');
    expect(failure(await f.contributor.gql(RENAME, { id: research.id, t: 'x'.repeat(201) })).message).toContain(
      'A folder title can be at most 200 characters long.',
    );

    const parent = await createFolder(f.contributor.gql, 'Parent');
    const [x, y, z] = [
      await createFolder(f.contributor.gql, 'X', parent.id),
      await createFolder(f.contributor.gql, 'Y', parent.id),
      await createFolder(f.contributor.gql, 'Z', parent.id),
    ];
    const titles = async () =>
      ok(await f.viewer.gql<{ folders: Array<{ title: string }> }>(FOLDERS, { p: parent.id })).folders.map(
        (r) => r.title,
      );
    ok(await f.contributor.gql(MOVE, { id: z.id, prev: x.id, next: y.id }));
    expect(await titles()).toEqual(['X', 'Z', 'Y']);

    const moved = ok(
      await f.contributor.gql<{ moveFolder: Folder }>(MOVE, { id: y.id, parent: research.id }),
    ).moveFolder;
    expect(moved).toMatchObject({ parentId: research.id, path: 'Discovery / Y' });
    expect(await titles()).toEqual(['X', 'Z']);
    const cycle = failure(await f.contributor.gql(MOVE, { id: parent.id, parent: x.id }));
    expect(cycle.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'parentId' });
    const top = ok(await f.contributor.gql<{ moveFolder: Folder }>(MOVE, { id: x.id, parent: null })).moveFolder;
    expect(top.parentId).toBeNull();
  });

  it('lets viewers only read, managers delete, and answers NOT_FOUND across workspaces', async () => {
    const folder = await createFolder(f.contributor.gql, 'Guarded');
    expect(failure(await f.viewer.gql(CREATE, { t: 'No' })).extensions?.errorCode).toBe('FORBIDDEN');
    expect(failure(await f.viewer.gql(RENAME, { id: folder.id, t: 'No' })).extensions?.errorCode).toBe('FORBIDDEN');
    expect(failure(await f.contributor.gql(DELETE, { id: folder.id })).extensions?.errorCode).toBe('FORBIDDEN');

    const other = await contentFixture(f.server, f.mail, []);
    expect(failure(await other.admin(FOLDER, { id: folder.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await other.admin(RENAME, { id: folder.id, t: 'Mine' })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await other.admin(CREATE, { t: 'Child', p: folder.id })).extensions).toMatchObject({
      errorCode: 'BAD_USER_INPUT',
      field: 'parentId',
    });
    expect(
      failure(
        await other.admin('mutation($f: ID!) { createProject(input: { title: "P", folderId: $f }) { id } }', {
          f: folder.id,
        }),
      ).extensions?.errorCode,
    ).toBe('NOT_FOUND');

    ok(await f.manager.gql(DELETE, { id: folder.id }));
    expect(failure(await f.viewer.gql(FOLDER, { id: folder.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(
      ok(await f.viewer.gql<{ folders: Array<{ id: string }> }>(FOLDERS, {})).folders.map((r) => r.id),
    ).not.toContain(folder.id);
  });
});
