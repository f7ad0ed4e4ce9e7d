import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import {
  contentFixture,
  createProject,
  failure,
  ok,
  startResearchServer,
  type ContentFixture,
} from './content-support.ts';

const TAG = 'id boardId groupId title color highlightColor description locked rank highlightCount';
const CREATE_BOARD = `mutation($input: CreateTagBoardInput!) { createTagBoard(input: $input) { id projectId title description rank } }`;
const CREATE_GROUP = `mutation($input: CreateTagGroupInput!) { createTagGroup(input: $input) { id boardId title color rank } }`;
const CREATE_TAG = `mutation($input: CreateTagInput!) { createTag(input: $input) { ${TAG} } }`;
const UPDATE_TAG = `mutation($input: UpdateTagInput!) { updateTag(input: $input) { ${TAG} } }`;
const MOVE_TAG = `mutation($input: MoveTagInput!) { moveTag(input: $input) { ${TAG} } }`;
const DELETE_TAG = 'mutation($id: ID!) { deleteTag(id: $id) }';
const MERGE = `mutation($s: [ID!]!, $t: ID!) { mergeTags(sourceIds: $s, targetId: $t) { ${TAG} } }`;
const TAG_HIGHLIGHT = `mutation($h: ID!, $t: [ID!]!) { tagHighlight(highlightId: $h, tagIds: $t) { id title } }`;
const UNTAG_HIGHLIGHT = `mutation($h: ID!, $t: [ID!]!) { untagHighlight(highlightId: $h, tagIds: $t) { id title } }`;
const BOARDS = `query($p: ID, $w: Boolean) { tagBoards(projectId: $p, includeWorkspace: $w) {
  id projectId title groups { id title tags { id title highlightCount } } tags { id title } ungroupedTags { id title highlightCount } } }`;
const TAG_QUERY = `query($id: ID!) { tag(id: $id) { ${TAG} } }`;

interface Tag {
  id: string;
  boardId: string;
  groupId: string | null;
  title: string;
  color: string;
  highlightColor: string;
  locked: boolean;
  rank: number;
  highlightCount: number;
}

describe('tags', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let f: ContentFixture;
  let other: ContentFixture;
  let projectId: string;
  let otherProjectId: string;

  /** Highlights come from the notes part; here they are rows made straight in the database. */
  async function highlight(project: string, workspaceId = f.ws.id): Promise<string> {
    const db = server.fieldbook.db.owner;
    const [note] = await db('notes')
      .insert({
        workspace_id: workspaceId,
        project_id: project,
        title: 'Interview',
        content_text: 'We love the new pricing page',
      })
      .returning('id');
    const [h] = await db('highlights')
      .insert({
        workspace_id: workspaceId,
        project_id: project,
        note_id: note.id,
        text: 'love',
        start_offset: 3,
        end_offset: 7,
      })
      .returning('id');
    return h.id as string;
  }

  const board = async (title: string, project?: string) =>
    ok(
      await f.contributor.gql<{ createTagBoard: { id: string; projectId: string | null } }>(CREATE_BOARD, {
        input: { title, projectId: project },
      }),
    ).createTagBoard;
  const tag = async (input: Record<string, unknown>) =>
    ok(await f.contributor.gql<{ createTag: Tag }>(CREATE_TAG, { input })).createTag;

  beforeAll(async () => {
    ({ server, mail } = await startResearchServer());
    f = await contentFixture(server, mail);
    other = await contentFixture(server, mail, []);
    projectId = (await createProject(f.contributor.gql, 'Pricing research')).id;
    otherProjectId = (await createProject(f.contributor.gql, 'Support research')).id;
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  it('creates workspace and project boards, groups and tags with expanded and derived colours', async () => {
    const ws = await board('Themes');
    const pb = await board('Pricing', projectId);
    expect(ws.projectId).toBeNull();
    expect(pb.projectId).toBe(projectId);
    const group = ok(
      await f.contributor.gql<{ createTagGroup: { color: string; boardId: string } }>(CREATE_GROUP, {
        input: { boardId: pb.id, title: 'Feelings', color: '#F0A' },
      }),
    ).createTagGroup;
    expect(group).toMatchObject({ color: '#ff00aa', boardId: pb.id });
    const a = await tag({ boardId: pb.id, title: '  Delight ', color: '#abc', description: 'Good moments' });
    const b = await tag({ boardId: pb.id, title: 'Confusion' });
    expect(a).toMatchObject({
      title: 'Delight',
      color: '#aabbcc',
      highlightColor: 'rgba(170, 187, 204, 0.2)',
      locked: false,
      highlightCount: 0,
    });
    expect(b.color).toMatch(/^#[0-9a-f]{6}$/);
    expect(b.rank).toBeGreaterThan(a.rank);
    const again = await tag({ boardId: pb.id, title: 'confusion' });
    expect(again.color).toBe(b.color);

    const boards = ok(
      await f.viewer.gql<{ tagBoards: Array<{ id: string; tags: Array<{ id: string }> }> }>(BOARDS, {
        p: projectId,
        w: true,
      }),
    ).tagBoards;
    expect(boards.map((x) => x.id)).toEqual([ws.id, pb.id]);
    expect(boards[1]!.tags.map((t) => t.id)).toEqual([a.id, b.id, again.id]);
    const workspaceOnly = ok(await f.viewer.gql<{ tagBoards: Array<{ id: string }> }>(BOARDS, {})).tagBoards;
    expect(workspaceOnly.map((x) => x.id)).toEqual([ws.id]);
  });

  it('enforces title limits and colours with exact messages, changing nothing', async () => {
    const pb = await board('Limits', projectId);
    const long = failure(await f.contributor.gql(CREATE_TAG, { input: { boardId: pb.id, title: 'x'.repeat(201) } }));
    expect(long.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'title' });
    expect(long.message).toBe('A tag title can be at most 200 characters long.');
    expect((await tag({ boardId: pb.id, title: 'y'.repeat(200) })).title).toHaveLength(200);
    expect(failure(await f.contributor.gql(CREATE_BOARD, { input: { title: 'b'.repeat(51) } })).message).toBe(
      'A tag board title can be at most 50 characters long.',
    );
    expect(
      failure(await f.contributor.gql(CREATE_GROUP, { input: { boardId: pb.id, title: 'g'.repeat(51) } })).message,
    ).toBe('A tag group title can be at most 50 characters long.');
    expect(failure(await f.contributor.gql(CREATE_TAG, { input: { boardId: pb.id, title: '   ' } })).message).toBe(
      'Give the tag a title.',
    );
    const color = failure(
      await f.contributor.gql(CREATE_TAG, { input: { boardId: pb.id, title: 'Red', color: 'red' } }),
    );
    expect(color.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'color' });
    expect(color.message).toBe('color: A colour is a hex colour such as #3e63dd or #36d.');
    const boards = ok(
      await f.viewer.gql<{ tagBoards: Array<{ id: string; tags: unknown[] }> }>(BOARDS, { p: projectId }),
    ).tagBoards;
    expect(boards.find((x) => x.id === pb.id)!.tags).toHaveLength(1);
  });

  it('answers NOT_FOUND for ids of another workspace and FORBIDDEN for viewers', async () => {
    const pb = await board('Private', projectId);
    const t = await tag({ boardId: pb.id, title: 'Mine' });
    expect(failure(await other.admin(TAG_QUERY, { id: t.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(
      failure(await other.admin(CREATE_TAG, { input: { boardId: pb.id, title: 'Theirs' } })).extensions?.errorCode,
    ).toBe('NOT_FOUND');
    expect(failure(await other.admin(DELETE_TAG, { id: t.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await other.admin(BOARDS, { p: projectId })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(
      failure(await f.viewer.gql(CREATE_TAG, { input: { boardId: pb.id, title: 'Nope' } })).extensions?.errorCode,
    ).toBe('FORBIDDEN');
    expect(failure(await f.viewer.gql(CREATE_BOARD, { input: { title: 'Nope' } })).extensions?.errorCode).toBe(
      'FORBIDDEN',
    );
    expect(
      failure(await f.viewer.gql(UPDATE_TAG, { input: { id: t.id, title: 'Renamed' } })).extensions?.errorCode,
    ).toBe('FORBIDDEN');
    expect(failure(await f.contributor.gql(DELETE_TAG, { id: t.id })).extensions?.errorCode).toBe('FORBIDDEN');
    expect(ok(await f.viewer.gql<{ tag: Tag }>(TAG_QUERY, { id: t.id })).tag.title).toBe('Mine');
    expect(ok(await f.manager.gql<{ deleteTag: boolean }>(DELETE_TAG, { id: t.id })).deleteTag).toBe(true);
    expect(failure(await f.viewer.gql(TAG_QUERY, { id: t.id })).extensions?.errorCode).toBe('NOT_FOUND');
  });

  it('lets only managers lock a tag and rename a locked one', async () => {
    const pb = await board('Locked', projectId);
    const t = await tag({ boardId: pb.id, title: 'Canon' });
    expect(failure(await f.contributor.gql(UPDATE_TAG, { input: { id: t.id, locked: true } })).message).toBe(
      'Only managers can lock or unlock a tag.',
    );
    expect(
      ok(await f.manager.gql<{ updateTag: Tag }>(UPDATE_TAG, { input: { id: t.id, locked: true } })).updateTag.locked,
    ).toBe(true);
    const rename = failure(await f.contributor.gql(UPDATE_TAG, { input: { id: t.id, title: 'Renamed' } }));
    expect(rename.extensions?.errorCode).toBe('FORBIDDEN');
    expect(rename.message).toBe('This tag is locked: only managers can rename it.');
    expect(
      ok(await f.contributor.gql<{ updateTag: Tag }>(UPDATE_TAG, { input: { id: t.id, color: '#123' } })).updateTag
        .color,
    ).toBe('#112233');
    expect(
      ok(await f.manager.gql<{ updateTag: Tag }>(UPDATE_TAG, { input: { id: t.id, title: 'Renamed' } })).updateTag
        .title,
    ).toBe('Renamed');
  });

  it('tags highlights, counts them in one batch, and keeps project tags to their project', async () => {
    const pb = await board('Counting', projectId);
    const otherBoard = await board('Elsewhere', otherProjectId);
    const ws = await board('Shared');
    const [t1, t2, shared, foreign] = [
      await tag({ boardId: pb.id, title: 'One' }),
      await tag({ boardId: pb.id, title: 'Two' }),
      await tag({ boardId: ws.id, title: 'Shared' }),
      await tag({ boardId: otherBoard.id, title: 'Foreign' }),
    ];
    const h1 = await highlight(projectId);
    const h2 = await highlight(projectId);
    const tagged = ok(
      await f.contributor.gql<{ tagHighlight: Array<{ id: string }> }>(TAG_HIGHLIGHT, {
        h: h1,
        t: [t1!.id, shared!.id, t1!.id],
      }),
    ).tagHighlight;
    expect(tagged.map((x) => x.id).sort()).toEqual([t1!.id, shared!.id].sort());
    ok(await f.contributor.gql(TAG_HIGHLIGHT, { h: h2, t: [t1!.id] }));
    ok(await f.contributor.gql(TAG_HIGHLIGHT, { h: h2, t: [t1!.id] }));
    const wrong = failure(await f.contributor.gql(TAG_HIGHLIGHT, { h: h1, t: [foreign!.id] }));
    expect(wrong.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'tagIds' });
    expect(failure(await f.viewer.gql(TAG_HIGHLIGHT, { h: h1, t: [t2!.id] })).extensions?.errorCode).toBe('FORBIDDEN');
    expect(failure(await other.admin(TAG_HIGHLIGHT, { h: h1, t: [] })).extensions?.errorCode).toBe('NOT_FOUND');

    const boards = ok(
      await f.viewer.gql<{
        tagBoards: Array<{
          id: string;
          tags: Array<{ id: string }>;
          ungroupedTags: Array<{ id: string; highlightCount: number }>;
        }>;
      }>(BOARDS, { p: projectId, w: true }),
    ).tagBoards;
    const counts = Object.fromEntries(boards.flatMap((b) => b.ungroupedTags).map((t) => [t.id, t.highlightCount]));
    expect(counts[t1!.id]).toBe(2);
    expect(counts[t2!.id]).toBe(0);
    expect(counts[shared!.id]).toBe(1);

    // A list reads its highlights' tags as one aliased field each, answered in one batch; a
    // highlight outside the caller's reach is not found, as when asked for alone.
    const both = ok(
      await f.viewer.gql<Record<string, Array<{ id: string }>>>(
        `query($a: ID!, $b: ID!) { a: highlightTags(highlightId: $a) { id } b: highlightTags(highlightId: $b) { id } }`,
        { a: h1, b: h2 },
      ),
    );
    expect(both.a!.map((x) => x.id).sort()).toEqual([t1!.id, shared!.id].sort());
    expect(both.b!.map((x) => x.id)).toEqual([t1!.id]);
    expect(
      failure(await other.admin(`query($a: ID!) { highlightTags(highlightId: $a) { id } }`, { a: h1 })).extensions
        ?.errorCode,
    ).toBe('NOT_FOUND');

    await server.fieldbook.db.owner('highlights').where({ id: h2 }).update({ deleted_at: new Date() });
    expect(ok(await f.viewer.gql<{ tag: Tag }>(TAG_QUERY, { id: t1!.id })).tag.highlightCount).toBe(1);
    const left = ok(
      await f.contributor.gql<{ untagHighlight: Array<{ id: string }> }>(UNTAG_HIGHLIGHT, { h: h1, t: [t1!.id] }),
    ).untagHighlight;
    expect(left.map((x) => x.id)).toEqual([shared!.id]);
  });

  it('merges tags: every tagging moves to the target and the sources are gone, in one go', async () => {
    const pb = await board('Merging', projectId);
    const [a, b, target] = [
      await tag({ boardId: pb.id, title: 'Price' }),
      await tag({ boardId: pb.id, title: 'Pricing' }),
      await tag({ boardId: pb.id, title: 'Cost' }),
    ];
    const h1 = await highlight(projectId);
    const h2 = await highlight(projectId);
    const h3 = await highlight(projectId);
    ok(await f.contributor.gql(TAG_HIGHLIGHT, { h: h1, t: [a!.id, b!.id] }));
    ok(await f.contributor.gql(TAG_HIGHLIGHT, { h: h2, t: [b!.id, target!.id] }));
    ok(await f.contributor.gql(TAG_HIGHLIGHT, { h: h3, t: [a!.id] }));

    expect(failure(await f.contributor.gql(MERGE, { s: [a!.id], t: target!.id })).extensions?.errorCode).toBe(
      'FORBIDDEN',
    );
    expect(failure(await f.manager.gql(MERGE, { s: [target!.id], t: target!.id })).message).toBe(
      'A tag cannot be merged into itself.',
    );
    const merged = ok(await f.manager.gql<{ mergeTags: Tag }>(MERGE, { s: [a!.id, b!.id], t: target!.id })).mergeTags;
    expect(merged).toMatchObject({ id: target!.id, highlightCount: 3 });
    expect(failure(await f.viewer.gql(TAG_QUERY, { id: a!.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await f.viewer.gql(TAG_QUERY, { id: b!.id })).extensions?.errorCode).toBe('NOT_FOUND');
    const rows = await server.fieldbook.db
      .owner('highlight_tags')
      .whereIn('highlight_id', [h1, h2, h3])
      .select('highlight_id', 'tag_id');
    expect(rows.map((r) => r.tag_id)).toEqual([target!.id, target!.id, target!.id]);

    // A source from another workspace leaves everything as it was.
    const c = await tag({ boardId: pb.id, title: 'Expense' });
    ok(await f.contributor.gql(TAG_HIGHLIGHT, { h: h1, t: [c!.id] }));
    expect(failure(await other.admin(MERGE, { s: [c!.id], t: target!.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(ok(await f.viewer.gql<{ tag: Tag }>(TAG_QUERY, { id: c!.id })).tag.highlightCount).toBe(1);
  });

  it('moves tags between neighbours, into groups and to other boards', async () => {
    const pb = await board('Moving', projectId);
    const ws = await board('Moving shared');
    const group = ok(
      await f.contributor.gql<{ createTagGroup: { id: string } }>(CREATE_GROUP, {
        input: { boardId: pb.id, title: 'Group' },
      }),
    ).createTagGroup;
    const [a, b, c] = [
      await tag({ boardId: pb.id, title: 'A' }),
      await tag({ boardId: pb.id, title: 'B' }),
      await tag({ boardId: pb.id, title: 'C' }),
    ];
    const order = async () =>
      ok(
        await f.viewer.gql<{
          tagBoards: Array<{
            id: string;
            ungroupedTags: Array<{ title: string }>;
            groups: Array<{ id: string; tags: Array<{ title: string }> }>;
          }>;
        }>(BOARDS, { p: projectId }),
      ).tagBoards.find((x) => x.id === pb.id)!;

    ok(await f.contributor.gql(MOVE_TAG, { input: { id: c!.id, nextId: a!.id } }));
    expect((await order()).ungroupedTags.map((t) => t.title)).toEqual(['C', 'A', 'B']);
    ok(await f.contributor.gql(MOVE_TAG, { input: { id: c!.id, previousId: a!.id, nextId: b!.id } }));
    expect((await order()).ungroupedTags.map((t) => t.title)).toEqual(['A', 'C', 'B']);

    const grouped = ok(
      await f.contributor.gql<{ moveTag: Tag }>(MOVE_TAG, { input: { id: b!.id, groupId: group.id } }),
    ).moveTag;
    expect(grouped.groupId).toBe(group.id);
    const now = await order();
    expect(now.ungroupedTags.map((t) => t.title)).toEqual(['A', 'C']);
    expect(now.groups[0]!.tags.map((t) => t.title)).toEqual(['B']);
    expect(
      ok(await f.contributor.gql<{ moveTag: Tag }>(MOVE_TAG, { input: { id: b!.id, groupId: null } })).moveTag.groupId,
    ).toBeNull();

    const wrongList = failure(
      await f.contributor.gql(MOVE_TAG, { input: { id: a!.id, previousId: b!.id, groupId: group.id } }),
    );
    expect(wrongList.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'previousId' });

    const h = await highlight(projectId);
    ok(await f.contributor.gql(TAG_HIGHLIGHT, { h, t: [a!.id] }));
    const toWorkspace = ok(
      await f.contributor.gql<{ moveTag: Tag }>(MOVE_TAG, { input: { id: a!.id, boardId: ws.id } }),
    ).moveTag;
    expect(toWorkspace).toMatchObject({ boardId: ws.id, groupId: null, highlightCount: 1 });
    const otherBoard = await board('Other project', otherProjectId);
    const misfit = failure(await f.contributor.gql(MOVE_TAG, { input: { id: a!.id, boardId: otherBoard.id } }));
    expect(misfit.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'boardId' });
  });
  it('counts on workspace tags only the highlights the caller can read, out of the trash', async () => {
    const ws = await board('Across projects');
    const t = await tag({ boardId: ws.id, title: 'Onboarding' });
    const open = (await createProject(f.contributor.gql, 'Open research')).id;
    const secret = (await createProject(f.contributor.gql, 'Restricted research')).id;
    const gone = (await createProject(f.contributor.gql, 'Trashed research')).id;
    const restricted = { groups: { markup: 'none' }, users: { [f.contributor.user.id]: 'full' } };
    ok(
      await f.contributor.gql(
        'mutation($p: ID!, $m: JSON!) { updateProjectAccess(projectId: $p, permissions: $m) { id } }',
        { p: secret, m: restricted },
      ),
    );
    const inOpen = await highlight(open);
    const inSecret = [await highlight(secret), await highlight(secret)];
    const inGone = await highlight(gone);
    for (const h of [inOpen, ...inSecret, inGone]) ok(await f.contributor.gql(TAG_HIGHLIGHT, { h, t: [t.id] }));

    const count = async (gql: typeof f.viewer.gql) =>
      ok(await gql<{ tag: Tag }>(TAG_QUERY, { id: t.id })).tag.highlightCount;
    // The creator of the restricted project keeps full access to it; the viewer cannot read it.
    expect(await count(f.contributor.gql)).toBe(4);
    expect(await count(f.viewer.gql)).toBe(2);
    expect(await count(f.manager.gql)).toBe(4);

    ok(await f.manager.gql('mutation($id: ID!) { deleteProject(id: $id) }', { id: gone }));
    expect(await count(f.manager.gql)).toBe(3);
    expect(await count(f.viewer.gql)).toBe(1);
    // A highlight whose note is in the trash does not count either.
    const [{ note_id: noteId }] = await server.fieldbook.db
      .owner('highlights')
      .where({ id: inSecret[0] })
      .select('note_id');
    await server.fieldbook.db.owner('notes').where({ id: noteId }).update({ deleted_at: new Date() });
    expect(await count(f.contributor.gql)).toBe(2);

    // Every tag of a board list is counted in the same batch: one count query, whatever the number of tags.
    const more = [
      await tag({ boardId: ws.id, title: 'Pricing again' }),
      await tag({ boardId: ws.id, title: 'Support again' }),
    ];
    ok(await f.contributor.gql(TAG_HIGHLIGHT, { h: inOpen, t: more.map((x) => x.id) }));
    const counted: string[] = [];
    const db = server.fieldbook.db.app;
    const listen = (q: { sql: string }) => {
      if (/count\(\*\)/i.test(q.sql) && /highlight_tags/i.test(q.sql)) counted.push(q.sql);
    };
    db.on('query', listen);
    try {
      const boards = ok(
        await f.viewer.gql<{
          tagBoards: Array<{ id: string; ungroupedTags: Array<{ id: string; highlightCount: number }> }>;
        }>(BOARDS, { p: open, w: true }),
      ).tagBoards;
      const mine = boards.find((b) => b.id === ws.id)!.ungroupedTags;
      expect(Object.fromEntries(mine.map((x) => [x.id, x.highlightCount]))).toEqual({
        [t.id]: 1,
        [more[0]!.id]: 1,
        [more[1]!.id]: 1,
      });
    } finally {
      db.off('query', listen);
    }
    expect(counted).toHaveLength(1);
  });
});
