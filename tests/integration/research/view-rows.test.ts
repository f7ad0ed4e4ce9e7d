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

const ROWS = `query($v: ID!, $first: Int, $after: String) { projectViewRows(viewId: $v, first: $first, after: $after) {
  totalCount hasNextPage endCursor rows { id objectType title published noteId noteTitle tags { id title } values { fieldId value } } } }`;
const CREATE = `mutation($p: ID!, $input: CreateProjectViewInput!) { createProjectView(projectId: $p, input: $input) { id } }`;
const UPDATE = `mutation($id: ID!, $input: UpdateProjectViewInput!) { updateProjectView(id: $id, input: $input) { id } }`;

interface Page {
  totalCount: number;
  hasNextPage: boolean;
  endCursor: string | null;
  rows: Array<{
    id: string;
    objectType: string;
    title: string;
    published: boolean | null;
    noteId: string | null;
    noteTitle: string | null;
    tags: Array<{ id: string; title: string }>;
    values: Array<{ fieldId: string; value: unknown }>;
  }>;
}

describe('project view rows', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let f: ContentFixture;
  let projectId: string;
  const notes: Record<string, string> = {};
  let stage: { id: string; options: Array<{ id: string; label: string }> };
  beforeAll(async () => {
    ({ server, mail } = await startResearchServer());
    f = await contentFixture(server, mail, ['CONTRIBUTOR', 'VIEWER']);
    projectId = (await createProject(f.contributor.gql, 'Pricing study')).id;
    for (const title of ['Banana call', 'apple interview', 'Cherry survey', 'Pricing chat']) {
      notes[title] = ok(
        await f.contributor.gql<{ createNote: { id: string } }>(
          'mutation($p: ID!, $t: String, $c: JSON) { createNote(input: { projectId: $p, title: $t, content: $c }) { id } }',
          {
            p: projectId,
            t: title,
            c: doc('Pricing is confusing'),
          },
        ),
      ).createNote.id;
    }
    stage = ok(
      await f.contributor.gql<{ createField: typeof stage }>(
        'mutation($p: ID!) { createField(input: { objectType: NOTE, projectId: $p, type: SELECT, label: "Stage", options: [{ label: "Open" }, { label: "Done" }] }) { id options { id label } } }',
        { p: projectId },
      ),
    ).createField;
    const done = stage.options.find((o) => o.label === 'Done')!.id;
    ok(
      await f.contributor.gql(
        'mutation($o: ID!, $f: ID!, $d: [String!]) { setFieldValue(objectType: NOTE, objectId: $o, fieldId: $f, optionIds: $d) { value } }',
        { o: notes['Cherry survey'], f: stage.id, d: [done] },
      ),
    );
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  const view = async (input: Record<string, unknown>) =>
    ok(
      await f.contributor.gql<{ createProjectView: { id: string } }>(CREATE, {
        p: projectId,
        input: { title: 'Table', layout: 'TABLE', ...input },
      }),
    ).createProjectView.id;
  const rows = async (v: string, first?: number, after?: string | null, gql = f.viewer.gql) =>
    ok(await gql<{ projectViewRows: Page }>(ROWS, { v, first, after })).projectViewRows;

  it('lists the rows in the saved sort, a page at a time, with their field values', async () => {
    const v = await view({ objectType: 'NOTE', sort: [{ field: 'Title', direction: 'ASC' }] });
    const first = await rows(v, 3);
    expect(first.rows.map((r) => r.title)).toEqual(['apple interview', 'Banana call', 'Cherry survey']);
    expect(first).toMatchObject({ totalCount: 4, hasNextPage: true });
    expect(first.rows[2]!.values).toEqual([
      { fieldId: stage.id, value: [stage.options.find((o) => o.label === 'Done')!.id] },
    ]);
    const second = await rows(v, 3, first.endCursor);
    expect(second.rows.map((r) => r.title)).toEqual(['Pricing chat']);
    expect(second).toMatchObject({ totalCount: 4, hasNextPage: false, endCursor: null });

    // By the select field, ascending, the note with a value comes first and those without last.
    ok(
      await f.contributor.gql(UPDATE, {
        id: v,
        input: {
          sort: [
            { field: `field.${stage.id}`, direction: 'ASC' },
            { field: 'Title', direction: 'DESC' },
          ],
        },
      }),
    );
    expect((await rows(v)).rows.map((r) => r.title)).toEqual([
      'Cherry survey',
      'Pricing chat',
      'Banana call',
      'apple interview',
    ]);
  });

  it('keeps only what the saved filter keeps, as search reads it', async () => {
    const filter = {
      combinator: 'or',
      forms: [
        { id: 'a', field: 'Title', operator: 'contains', values: { Title: { text: 'call' } } },
        {
          id: 'b',
          field: { id: `field.${stage.id}`, fieldType: 'SELECT', objectType: 'NOTE', max: 100 },
          operator: 'notEmpty',
          values: {},
        },
      ],
    };
    const v = await view({ objectType: 'NOTE', filter, sort: [{ field: 'Title', direction: 'ASC' }] });
    const page = await rows(v);
    expect(page.rows.map((r) => r.title)).toEqual(['Banana call', 'Cherry survey']);
    expect(page.totalCount).toBe(2);
  });

  it('lists highlights with their note and tags, and insights with published', async () => {
    const h = ok(
      await f.contributor.gql<{ createHighlight: { id: string } }>(
        'mutation($n: ID!) { createHighlight(input: { noteId: $n, startOffset: 0, endOffset: 7 }) { id } }',
        { n: notes['Pricing chat'] },
      ),
    ).createHighlight.id;
    const board = ok(
      await f.contributor.gql<{ createTagBoard: { id: string } }>(
        'mutation($p: ID!) { createTagBoard(input: { projectId: $p, title: "Board" }) { id } }',
        { p: projectId },
      ),
    ).createTagBoard.id;
    const tag = ok(
      await f.contributor.gql<{ createTag: { id: string } }>(
        'mutation($b: ID!) { createTag(input: { boardId: $b, title: "Cost" }) { id } }',
        { b: board },
      ),
    ).createTag.id;
    ok(
      await f.contributor.gql('mutation($h: ID!, $t: [ID!]!) { tagHighlight(highlightId: $h, tagIds: $t) { id } }', {
        h,
        t: [tag],
      }),
    );
    const hv = await view({ objectType: 'HIGHLIGHT' });
    expect((await rows(hv)).rows).toEqual([
      {
        id: h,
        objectType: 'HIGHLIGHT',
        title: 'Pricing',
        published: null,
        noteId: notes['Pricing chat'],
        noteTitle: 'Pricing chat',
        tags: [{ id: tag, title: 'Cost' }],
        values: [],
      },
    ]);

    const insight = ok(
      await f.contributor.gql<{ createInsight: { id: string } }>(
        'mutation($p: ID!) { createInsight(input: { projectId: $p, title: "Too dear" }) { id } }',
        { p: projectId },
      ),
    ).createInsight.id;
    ok(await f.contributor.gql('mutation($id: ID!) { publishInsight(id: $id) { id } }', { id: insight }));
    const iv = await view({ objectType: 'INSIGHT' });
    expect((await rows(iv)).rows.map((r) => [r.title, r.published])).toEqual([['Too dear', true]]);
  });

  it('carries what the columns of 002 show: preview, thumbnail, contributors, summary, insights, highlight counts and insight tags', async () => {
    const DETAILS = `query($v: ID!) { projectViewRows(viewId: $v) { rows { id title preview thumbnailUrl contributorIds summary highlightCount publishedAt insights { id title } tags { title } } } }`;
    type Row = {
      id: string;
      title: string;
      preview: string | null;
      thumbnailUrl: string | null;
      contributorIds: string[];
      summary: string | null;
      highlightCount: number | null;
      publishedAt: string | null;
      insights: Array<{ id: string; title: string }>;
      tags: Array<{ title: string }>;
    };
    const content = {
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'Dana   compared us\nwith the old tool.' }] },
        {
          type: 'video',
          attrs: { src: 'https://media.example.com/call.mp4', poster: 'https://media.example.com/call.jpg' },
        },
        { type: 'image', attrs: { src: 'javascript:alert(1)' } },
      ],
    };
    const dana = ok(
      await f.contributor.gql<{ createNote: { id: string } }>(
        'mutation($p: ID!, $c: JSON) { createNote(input: { projectId: $p, title: "Dana call", content: $c }) { id } }',
        { p: projectId, c: content },
      ),
    ).createNote.id;
    const unsafe = ok(
      await f.contributor.gql<{ createNote: { id: string } }>(
        'mutation($p: ID!, $c: JSON) { createNote(input: { projectId: $p, title: "Unsafe image", content: $c }) { id } }',
        { p: projectId, c: { type: 'doc', content: [{ type: 'image', attrs: { src: 'javascript:alert(1)' } }] } },
      ),
    ).createNote.id;
    const highlight = async (offset: number) =>
      ok(
        await f.contributor.gql<{ createHighlight: { id: string } }>(
          'mutation($n: ID!, $s: Int!, $e: Int!) { createHighlight(input: { noteId: $n, startOffset: $s, endOffset: $e }) { id } }',
          { n: dana, s: offset, e: offset + 4 },
        ),
      ).createHighlight.id;
    const [h1, h2] = [await highlight(0), await highlight(14)];
    const board = ok(
      await f.contributor.gql<{ createTagBoard: { id: string } }>(
        'mutation($p: ID!) { createTagBoard(input: { projectId: $p, title: "Themes" }) { id } }',
        { p: projectId },
      ),
    ).createTagBoard.id;
    const tag = ok(
      await f.contributor.gql<{ createTag: { id: string } }>(
        'mutation($b: ID!) { createTag(input: { boardId: $b, title: "Switching" }) { id } }',
        { b: board },
      ),
    ).createTag.id;
    ok(
      await f.contributor.gql('mutation($h: ID!, $t: [ID!]!) { tagHighlight(highlightId: $h, tagIds: $t) { id } }', {
        h: h1,
        t: [tag],
      }),
    );
    const insight = ok(
      await f.contributor.gql<{ createInsight: { id: string } }>(
        'mutation($p: ID!, $s: JSON) { createInsight(input: { projectId: $p, title: "People switch for speed", summary: $s }) { id } }',
        { p: projectId, s: doc('Speed wins deals.') },
      ),
    ).createInsight.id;
    for (const h of [h1, h2])
      ok(
        await f.contributor.gql('mutation($i: ID!, $h: ID!) { citeHighlight(insightId: $i, highlightId: $h) { id } }', {
          i: insight,
          h,
        }),
      );
    await server.fieldbook.db.owner('ai_summaries').insert({
      workspace_id: f.ws.id,
      object_type: 'NOTE',
      object_id: dana,
      kind: 'paragraph',
      framework: 'default',
      content: JSON.stringify({ text: 'Dana left  a rival.', sections: [], quotes: [] }),
    });

    const list = async (objectType: string) =>
      ok(
        await f.viewer.gql<{ projectViewRows: { rows: Row[] } }>(DETAILS, {
          v: await view({ objectType, sort: [{ field: 'HighlightCount', direction: 'DESC' }] }),
        }),
      ).projectViewRows.rows;
    const notesNow = await list('NOTE');
    expect(notesNow[0]).toEqual({
      id: dana,
      title: 'Dana call',
      preview: 'Dana compared us with the old tool.',
      thumbnailUrl: 'https://media.example.com/call.jpg',
      contributorIds: [f.contributor.user.id],
      summary: 'Dana left a rival.',
      highlightCount: 2,
      publishedAt: null,
      insights: [{ id: insight, title: 'People switch for speed' }],
      tags: [],
    });
    expect(notesNow.find((r) => r.id === unsafe)).toMatchObject({
      thumbnailUrl: null,
      highlightCount: 0,
      summary: null,
      insights: [],
    });
    const [insightRow] = (await list('INSIGHT')).filter((r) => r.id === insight);
    expect(insightRow).toMatchObject({
      summary: 'Speed wins deals.',
      highlightCount: 2,
      tags: [{ title: 'Switching' }],
      insights: [],
    });
    // A cited highlight in the trash no longer counts, nor lends its tags.
    ok(await f.contributor.gql('mutation($id: ID!) { deleteHighlight(id: $id) }', { id: h1 }));
    expect((await list('INSIGHT')).find((r) => r.id === insight)).toMatchObject({ highlightCount: 1, tags: [] });
  });

  it('refuses a page over 1,000 rows, a bad cursor and a filter search cannot read', async () => {
    const v = await view({ objectType: 'NOTE' });
    const big = failure(await f.viewer.gql(ROWS, { v, first: 1001 }));
    expect(big.extensions?.errorCode).toBe('BAD_USER_INPUT');
    expect(big.message).toContain('at most 1000 rows');
    expect(failure(await f.viewer.gql(ROWS, { v, after: 'nope' })).extensions?.field).toBe('after');
    const bad = failure(
      await f.contributor.gql(UPDATE, {
        id: v,
        input: { filter: { combinator: 'and', forms: [{ id: 'x', field: 'Nonsense', operator: 'is', values: {} }] } },
      }),
    );
    expect(bad.extensions?.errorCode).toBe('BAD_USER_INPUT');
    expect(String(bad.extensions?.field)).toMatch(/^input\.filter/);
  });

  it('answers NOT_FOUND to someone who cannot read the project', async () => {
    const v = await view({ objectType: 'NOTE' });
    const access = (markup: string) =>
      f.contributor.gql('mutation($p: ID!, $m: JSON!) { updateProjectAccess(projectId: $p, permissions: $m) { id } }', {
        p: projectId,
        m: { groups: { markup }, users: { [f.contributor.user.id]: 'full' } },
      });
    ok(await access('none'));
    expect(failure(await f.viewer.gql(ROWS, { v })).extensions?.errorCode).toBe('NOT_FOUND');
    expect((await rows(v, 1, null, f.contributor.gql)).totalCount).toBe(6);
  });
});
