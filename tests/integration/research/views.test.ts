import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { createWorkspaceWithAdmin, gqlAs } from '../../support/factories.ts';
import {
  contentFixture,
  createProject,
  doc,
  failure,
  ok,
  startResearchServer,
  type ContentFixture,
  type Gql,
} from './content-support.ts';

const ITEM = `id viewId kind x y hidden
  ... on CanvasRectangle { width height }
  ... on CanvasText { width height text format }
  ... on CanvasGroup { width height title color }
  ... on CanvasReference { width height objectType objectId }`;
const VIEW = `id projectId title layout objectType rank canEdit
  sort { field direction } filter group { kind fieldId } columns { field width sticky wrapped }
  hiddenFields hiddenOptions hideUncategorized
  canvas { stagingArea { x y } objectRanks { objectId rank } expandedCardIds summary { text peekMode } }
  canvasItems { ${ITEM} }`;
const CREATE = `mutation($p: ID!, $input: CreateProjectViewInput!) { createProjectView(projectId: $p, input: $input) { ${VIEW} } }`;
const UPDATE = `mutation($id: ID!, $input: UpdateProjectViewInput!) { updateProjectView(id: $id, input: $input) { ${VIEW} } }`;
const MOVE =
  'mutation($id: ID!, $prev: ID, $next: ID) { moveProjectView(id: $id, previousId: $prev, nextId: $next) { id rank } }';
const DELETE = 'mutation($id: ID!) { deleteProjectView(id: $id) }';
const LIST = 'query($p: ID!) { projectViews(projectId: $p) { id title canEdit } }';
const GET = `query($id: ID!) { projectView(id: $id) { ${VIEW} } }`;
const ADD_ITEM = `mutation($v: ID!, $input: AddCanvasItemInput!) { addCanvasItem(viewId: $v, input: $input) { ${ITEM} } }`;
const UPDATE_ITEM = `mutation($id: ID!, $input: UpdateCanvasItemInput!) { updateCanvasItem(id: $id, input: $input) { ${ITEM} } }`;
const REMOVE_ITEM = 'mutation($id: ID!) { removeCanvasItem(id: $id) }';

interface View {
  id: string;
  projectId: string;
  title: string;
  layout: string;
  objectType: string;
  rank: number;
  canEdit: boolean;
  sort: Array<{ field: string; direction: string }>;
  filter: Record<string, unknown> | null;
  group: { kind: string; fieldId: string | null } | null;
  columns: Array<{ field: string; width: number | null; sticky: boolean; wrapped: boolean }>;
  hiddenFields: string[];
  hiddenOptions: string[];
  hideUncategorized: boolean;
  canvas: {
    stagingArea: { x: number; y: number } | null;
    objectRanks: Array<{ objectId: string; rank: number }>;
    expandedCardIds: string[];
    summary: { text: string; peekMode: string } | null;
  };
  canvasItems: Item[];
}
interface Item {
  id: string;
  kind: string;
  x: number;
  y: number;
  hidden: boolean;
  width?: number;
  height?: number;
  text?: string;
  format?: string;
  title?: string;
  color?: string;
  objectType?: string;
  objectId?: string;
}

describe('project views', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let f: ContentFixture;
  let projectId: string;
  beforeAll(async () => {
    ({ server, mail } = await startResearchServer());
    f = await contentFixture(server, mail);
    projectId = (await createProject(f.contributor.gql, 'Onboarding study')).id;
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  const create = async (gql: Gql, input: Record<string, unknown>, p = projectId) =>
    ok(await gql<{ createProjectView: View }>(CREATE, { p, input })).createProjectView;
  const note = async (gql: Gql, p: string, title = 'Interview') =>
    ok(
      await gql<{ createNote: { id: string } }>(
        'mutation($p: ID!, $t: String, $c: JSON) { createNote(input: { projectId: $p, title: $t, content: $c }) { id } }',
        { p, t: title, c: doc('We struggled with pricing') },
      ),
    ).createNote.id;

  it('creates a view with its saved sort, filter, grouping, columns and hidden options', async () => {
    const filter = {
      combinator: 'and',
      forms: [{ id: 'f1', field: 'Title', operator: 'contains', values: { Title: { text: 'pricing' } } }],
    };
    const field = ok(
      await f.contributor.gql<{ createField: { id: string } }>(
        'mutation($p: ID!) { createField(input: { objectType: NOTE, projectId: $p, type: SELECT, label: "Stage" }) { id } }',
        { p: projectId },
      ),
    ).createField;
    const v = await create(f.contributor.gql, {
      title: 'Notes by stage',
      layout: 'BOARD',
      objectType: 'NOTE',
      sort: [
        { field: 'Created', direction: 'DESC' },
        { field: `field.${field.id}`, direction: 'ASC' },
      ],
      filter,
      group: { kind: 'SELECT', fieldId: field.id },
      columns: [
        { field: 'Title', width: 320, sticky: true },
        { field: 'Tags', wrapped: true },
      ],
      hiddenFields: ['Contributors', 'Contributors'],
      hiddenOptions: ['opt-1'],
      hideUncategorized: true,
    });
    expect(v).toMatchObject({
      projectId,
      title: 'Notes by stage',
      layout: 'BOARD',
      objectType: 'NOTE',
      canEdit: true,
      sort: [
        { field: 'Created', direction: 'DESC' },
        { field: `field.${field.id}`, direction: 'ASC' },
      ],
      filter,
      group: { kind: 'SELECT', fieldId: field.id },
      columns: [
        { field: 'Title', width: 320, sticky: true, wrapped: false },
        { field: 'Tags', width: null, sticky: false, wrapped: true },
      ],
      hiddenFields: ['Contributors'],
      hiddenOptions: ['opt-1'],
      hideUncategorized: true,
    });
    // Read back as stored, by a viewer (who can read the project but not edit the view).
    const read = ok(await f.viewer.gql<{ projectView: View }>(GET, { id: v.id })).projectView;
    expect(read).toMatchObject({ filter, group: { kind: 'SELECT', fieldId: field.id }, canEdit: false });

    // A filter sent as JSON text is read; keys left out keep their value; null resets one.
    const u = ok(
      await f.contributor.gql<{ updateProjectView: View }>(UPDATE, {
        id: v.id,
        input: { filter: JSON.stringify({ combinator: 'or', forms: [] }), group: null },
      }),
    ).updateProjectView;
    expect(u.filter).toEqual({ combinator: 'or', forms: [] });
    expect(u.group).toBeNull();
    expect(u.sort).toHaveLength(2);
    expect(u.hideUncategorized).toBe(true);
  });

  it('refuses bad settings, naming the field and the limit, and changes nothing', async () => {
    const v = await create(f.contributor.gql, {
      title: 'Keep me',
      layout: 'TABLE',
      objectType: 'NOTE',
      sort: [{ field: 'Title', direction: 'ASC' }],
    });
    const attempts: Array<[Record<string, unknown>, string, string]> = [
      [{ title: 'x'.repeat(201) }, 'input.title', 'at most 200 characters'],
      [{ sort: [{ field: 'Nonsense', direction: 'ASC' }] }, 'input.sort.0.field', 'system field'],
      [{ columns: [{ field: 'Title', width: 5 }] }, 'input.columns.0.width', 'at least 40'],
      [{ filter: '{oops' }, 'input.filter', 'not valid JSON'],
      [{ filter: [1] }, 'input.filter', 'JSON object'],
      [{ filter: { text: 'x'.repeat(100_001) } }, 'input.filter', '100,000 characters'],
      [{ group: { kind: 'PUBLISHED' } }, 'input.group.kind', 'Only insight views'],
      [{ group: { kind: 'SELECT' } }, 'input.group.fieldId', 'needs the field'],
      [
        { group: { kind: 'PERSON', fieldId: '3f2b8c1e-9a4d-4c7b-8e21-5d6f7a8b9c0d' } },
        'input.group.fieldId',
        'person field',
      ],
      [{ hiddenOptions: Array.from({ length: 751 }, (_, i) => `o${i}`) }, 'input.hiddenOptions', 'at most 750'],
    ];
    for (const [input, field, text] of attempts) {
      const error = failure(await f.contributor.gql(UPDATE, { id: v.id, input }));
      expect(error.extensions?.errorCode, JSON.stringify(input).slice(0, 80)).toBe('BAD_USER_INPUT');
      expect(error.extensions?.field).toBe(field);
      expect(error.message).toContain(text);
    }
    expect(ok(await f.contributor.gql<{ projectView: View }>(GET, { id: v.id })).projectView).toMatchObject({
      title: 'Keep me',
      sort: [{ field: 'Title', direction: 'ASC' }],
      filter: null,
      group: null,
    });
    // Published grouping is for insight views.
    const insights = await create(f.contributor.gql, {
      title: 'Published',
      layout: 'GRID',
      objectType: 'INSIGHT',
      group: { kind: 'PUBLISHED' },
    });
    expect(insights.group).toEqual({ kind: 'PUBLISHED', fieldId: null });
  });

  it('orders views by rank and moves them between neighbours', async () => {
    const p = (await createProject(f.contributor.gql, 'Ordering')).id;
    const a = await create(f.contributor.gql, { title: 'A', layout: 'LIST', objectType: 'NOTE' }, p);
    const b = await create(f.contributor.gql, { title: 'B', layout: 'GRID', objectType: 'INSIGHT' }, p);
    const c = await create(f.contributor.gql, { title: 'C', layout: 'TABLE', objectType: 'HIGHLIGHT' }, p);
    const titles = async () =>
      ok(await f.viewer.gql<{ projectViews: View[] }>(LIST, { p })).projectViews.map((v) => v.title);
    expect(await titles()).toEqual(['A', 'B', 'C']);
    ok(await f.contributor.gql(MOVE, { id: c.id, next: a.id }));
    expect(await titles()).toEqual(['C', 'A', 'B']);
    ok(await f.contributor.gql(MOVE, { id: c.id, prev: a.id, next: b.id }));
    expect(await titles()).toEqual(['A', 'C', 'B']);
    // A neighbour from another project is refused.
    const elsewhere = await create(f.contributor.gql, { title: 'Elsewhere', layout: 'LIST', objectType: 'NOTE' });
    expect(failure(await f.contributor.gql(MOVE, { id: a.id, next: elsewhere.id })).extensions?.errorCode).toBe(
      'BAD_USER_INPUT',
    );

    ok(await f.contributor.gql(DELETE, { id: b.id }));
    expect(await titles()).toEqual(['A', 'C']);
    expect(failure(await f.contributor.gql(GET, { id: b.id })).extensions?.errorCode).toBe('NOT_FOUND');
  });

  it('lets readers read and only contributors with write access change views', async () => {
    const v = await create(f.contributor.gql, { title: 'Guarded', layout: 'LIST', objectType: 'NOTE' });
    expect(
      failure(await f.viewer.gql(CREATE, { p: projectId, input: { title: 'No', layout: 'LIST', objectType: 'NOTE' } }))
        .extensions?.errorCode,
    ).toBe('FORBIDDEN');
    expect(failure(await f.viewer.gql(UPDATE, { id: v.id, input: { title: 'No' } })).extensions?.errorCode).toBe(
      'FORBIDDEN',
    );
    expect(failure(await f.viewer.gql(DELETE, { id: v.id })).extensions?.errorCode).toBe('FORBIDDEN');

    // A restricted project: the contributor who may only read it cannot change its views...
    const restricted = (await createProject(f.admin, 'Restricted')).id;
    const rv = await create(f.admin, { title: 'Admin view', layout: 'LIST', objectType: 'NOTE' }, restricted);
    const permissions = { groups: { markup: 'none' }, users: { [f.contributor.user.id]: 'read' } };
    ok(
      await f.admin('mutation($p: ID!, $m: JSON!) { updateProjectAccess(projectId: $p, permissions: $m) { id } }', {
        p: restricted,
        m: permissions,
      }),
    );
    expect(ok(await f.contributor.gql<{ projectViews: View[] }>(LIST, { p: restricted })).projectViews).toEqual([
      { id: rv.id, title: 'Admin view', canEdit: false },
    ]);
    expect(
      failure(await f.contributor.gql(UPDATE, { id: rv.id, input: { title: 'Mine' } })).extensions?.errorCode,
    ).toBe('FORBIDDEN');
    expect(
      failure(
        await f.contributor.gql(CREATE, { p: restricted, input: { title: 'No', layout: 'LIST', objectType: 'NOTE' } }),
      ).extensions?.errorCode,
    ).toBe('FORBIDDEN');
    // ...and one who cannot read it does not find its views at all.
    expect(failure(await f.viewer.gql(GET, { id: rv.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await f.viewer.gql(LIST, { p: restricted })).extensions?.errorCode).toBe('NOT_FOUND');

    // Another workspace's view is not found.
    const other = await createWorkspaceWithAdmin(server, mail);
    const stranger = gqlAs(server, other.admin.accessToken, other.id);
    expect(failure(await stranger(GET, { id: v.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await stranger(DELETE, { id: v.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(ok(await f.contributor.gql<{ projectView: View }>(GET, { id: v.id })).projectView.title).toBe('Guarded');
  });

  it('keeps canvas items and canvas state, validated, with references to objects of the same project', async () => {
    const canvas = await create(f.contributor.gql, { title: 'Synthesis', layout: 'CANVAS', objectType: 'NOTE' });
    const rect = ok(
      await f.contributor.gql<{ addCanvasItem: Item }>(ADD_ITEM, {
        v: canvas.id,
        input: { kind: 'RECTANGLE', x: 10, y: 20, width: 300, height: 200 },
      }),
    ).addCanvasItem;
    expect(rect).toMatchObject({ kind: 'RECTANGLE', x: 10, y: 20, width: 300, height: 200, hidden: false });
    const text = ok(
      await f.contributor.gql<{ addCanvasItem: Item }>(ADD_ITEM, {
        v: canvas.id,
        input: { kind: 'TEXT', x: 0, y: 0, width: 100, height: 40, text: 'Pricing', format: 'H2' },
      }),
    ).addCanvasItem;
    expect(text).toMatchObject({ text: 'Pricing', format: 'H2' });
    const group = ok(
      await f.contributor.gql<{ addCanvasItem: Item }>(ADD_ITEM, {
        v: canvas.id,
        input: { kind: 'GROUP', x: 0, y: 300, width: 500, height: 300, title: 'Pains', color: '#F80' },
      }),
    ).addCanvasItem;
    expect(group).toMatchObject({ title: 'Pains', color: '#ff8800' });

    const n = await note(f.contributor.gql, projectId);
    const insight = ok(
      await f.contributor.gql<{ createInsight: { id: string } }>(
        'mutation($p: ID!) { createInsight(input: { projectId: $p, title: "Pricing confuses" }) { id } }',
        { p: projectId },
      ),
    ).createInsight.id;
    const h = ok(
      await f.contributor.gql<{ createHighlight: { id: string } }>(
        'mutation($n: ID!) { createHighlight(input: { noteId: $n, startOffset: 0, endOffset: 5 }) { id } }',
        { n },
      ),
    ).createHighlight.id;
    const ref = ok(
      await f.contributor.gql<{ addCanvasItem: Item }>(ADD_ITEM, {
        v: canvas.id,
        input: { kind: 'REFERENCE', x: 40, y: 50, objectType: 'NOTE', objectId: n },
      }),
    ).addCanvasItem;
    expect(ref).toMatchObject({ kind: 'REFERENCE', objectType: 'NOTE', objectId: n, x: 40, y: 50 });
    ok(
      await f.contributor.gql(ADD_ITEM, {
        v: canvas.id,
        input: { kind: 'REFERENCE', x: 1, y: 1, objectType: 'INSIGHT', objectId: insight },
      }),
    );
    ok(
      await f.contributor.gql(ADD_ITEM, {
        v: canvas.id,
        input: { kind: 'REFERENCE', x: 2, y: 2, objectType: 'HIGHLIGHT', objectId: h },
      }),
    );

    // Refused: other kinds' fields, bad numbers, duplicates, objects elsewhere, non-canvas views.
    const bad: Array<[Record<string, unknown>, string, string]> = [
      [
        { kind: 'RECTANGLE', x: 0, y: 0, width: 10, height: 10, text: 'no' },
        'BAD_USER_INPUT',
        'A rectangle has no text.',
      ],
      [{ kind: 'RECTANGLE', x: 0, y: 0, width: 10 }, 'BAD_USER_INPUT', 'height'],
      [{ kind: 'RECTANGLE', x: 0, y: 0, width: -1, height: 10 }, 'BAD_USER_INPUT', 'width must be greater than 0'],
      [{ kind: 'TEXT', x: 1e7, y: 0, width: 1, height: 1, text: 'far' }, 'BAD_USER_INPUT', 'between'],
      [{ kind: 'GROUP', x: 0, y: 0, width: 1, height: 1, title: 'G', color: 'orange' }, 'BAD_USER_INPUT', 'hex colour'],
      [{ kind: 'REFERENCE', x: 0, y: 0, objectType: 'NOTE', objectId: n }, 'BAD_USER_INPUT', 'already on this canvas'],
      [{ kind: 'REFERENCE', x: 0, y: 0, objectType: 'NOTE' }, 'BAD_USER_INPUT', 'objectId'],
    ];
    for (const [input, code, text] of bad) {
      const error = failure(await f.contributor.gql(ADD_ITEM, { v: canvas.id, input }));
      expect(error.extensions?.errorCode, JSON.stringify(input)).toBe(code);
      expect(error.message).toContain(text);
    }
    const otherProject = (await createProject(f.contributor.gql, 'Other study')).id;
    const foreign = await note(f.contributor.gql, otherProject);
    const foreignError = failure(
      await f.contributor.gql(ADD_ITEM, {
        v: canvas.id,
        input: { kind: 'REFERENCE', x: 0, y: 0, objectType: 'NOTE', objectId: foreign },
      }),
    );
    expect(foreignError.extensions?.errorCode).toBe('NOT_FOUND');
    expect(foreignError.message).toBe('That note was not found in this project.');
    const board = await create(f.contributor.gql, { title: 'Board', layout: 'BOARD', objectType: 'NOTE' });
    expect(
      failure(
        await f.contributor.gql(ADD_ITEM, {
          v: board.id,
          input: { kind: 'RECTANGLE', x: 0, y: 0, width: 1, height: 1 },
        }),
      ).extensions?.errorCode,
    ).toBe('INVALID_OPERATION');
    expect(
      failure(
        await f.viewer.gql(ADD_ITEM, { v: canvas.id, input: { kind: 'RECTANGLE', x: 0, y: 0, width: 1, height: 1 } }),
      ).extensions?.errorCode,
    ).toBe('FORBIDDEN');

    // Updates move, resize, hide and edit; a field of another kind is refused.
    const moved = ok(
      await f.contributor.gql<{ updateCanvasItem: Item }>(UPDATE_ITEM, {
        id: rect.id,
        input: { x: -50.5, hidden: true },
      }),
    ).updateCanvasItem;
    expect(moved).toMatchObject({ x: -50.5, y: 20, width: 300, hidden: true });
    expect(
      ok(
        await f.contributor.gql<{ updateCanvasItem: Item }>(UPDATE_ITEM, {
          id: group.id,
          input: { title: 'Gains', color: '#0a0' },
        }),
      ).updateCanvasItem,
    ).toMatchObject({ title: 'Gains', color: '#00aa00' });
    expect(ref).toMatchObject({ width: 240, height: 96 });
    expect(failure(await f.contributor.gql(UPDATE_ITEM, { id: ref.id, input: { width: 10 } })).message).toContain(
      'A reference is resized with both its width and its height.',
    );
    expect(
      ok(
        await f.contributor.gql<{ updateCanvasItem: Item }>(UPDATE_ITEM, {
          id: ref.id,
          input: { width: 320, height: 140 },
        }),
      ).updateCanvasItem,
    ).toMatchObject({ width: 320, height: 140, objectId: n });
    expect(
      ok(await f.contributor.gql<{ updateCanvasItem: Item }>(UPDATE_ITEM, { id: ref.id, input: { x: 44 } }))
        .updateCanvasItem,
    ).toMatchObject({ x: 44, width: 320, height: 140 });
    expect(
      failure(await f.contributor.gql(UPDATE_ITEM, { id: text.id, input: { height: 0 } })).extensions?.errorCode,
    ).toBe('BAD_USER_INPUT');

    // Canvas state: staging area, per-object ranks, expanded cards and summary.
    const withState = ok(
      await f.contributor.gql<{ updateProjectView: View }>(UPDATE, {
        id: canvas.id,
        input: {
          canvas: {
            stagingArea: { x: 5, y: 6 },
            objectRanks: [{ objectId: n, rank: 1.5 }],
            expandedCardIds: [n],
            summary: { text: 'Pricing is the theme', peekMode: 'FullPage' },
          },
        },
      }),
    ).updateProjectView;
    expect(withState.canvas).toEqual({
      stagingArea: { x: 5, y: 6 },
      objectRanks: [{ objectId: n, rank: 1.5 }],
      expandedCardIds: [n],
      summary: { text: 'Pricing is the theme', peekMode: 'FullPage' },
    });
    const partly = ok(
      await f.contributor.gql<{ updateProjectView: View }>(UPDATE, {
        id: canvas.id,
        input: { canvas: { stagingArea: null } },
      }),
    ).updateProjectView;
    expect(partly.canvas).toMatchObject({ stagingArea: null, expandedCardIds: [n], summary: { peekMode: 'FullPage' } });
    expect(partly.canvasItems.map((i) => i.kind)).toEqual([
      'RECTANGLE',
      'TEXT',
      'GROUP',
      'REFERENCE',
      'REFERENCE',
      'REFERENCE',
    ]);

    // A reference to a trashed object is left out until it is restored.
    ok(await f.manager.gql('mutation($id: ID!) { deleteInsight(id: $id) }', { id: insight }));
    const afterTrash = ok(await f.viewer.gql<{ projectView: View }>(GET, { id: canvas.id })).projectView.canvasItems;
    expect(afterTrash.map((i) => i.objectId).filter(Boolean)).toEqual([n, h]);
    ok(await f.manager.gql('mutation($id: ID!) { restore(type: INSIGHT, id: $id) }', { id: insight }));
    expect(ok(await f.viewer.gql<{ projectView: View }>(GET, { id: canvas.id })).projectView.canvasItems).toHaveLength(
      6,
    );

    ok(await f.contributor.gql(REMOVE_ITEM, { id: text.id }));
    expect(failure(await f.contributor.gql(REMOVE_ITEM, { id: text.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(ok(await f.viewer.gql<{ projectView: View }>(GET, { id: canvas.id })).projectView.canvasItems).toHaveLength(
      5,
    );

    // Deleting the view deletes its items; the objects stay.
    ok(await f.contributor.gql(DELETE, { id: canvas.id }));
    expect(failure(await f.contributor.gql(UPDATE_ITEM, { id: rect.id, input: { x: 1 } })).extensions?.errorCode).toBe(
      'NOT_FOUND',
    );
    expect(
      ok(await f.viewer.gql<{ note: { id: string } }>('query($id: ID!) { note(id: $id) { id } }', { id: n })).note.id,
    ).toBe(n);
  });
});
