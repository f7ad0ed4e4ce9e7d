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
  type Gql,
} from './content-support.ts';

const ROW = 'id title preview highlightCount rowTags { id title color }';
const NOTES = `query($p: ID!, $first: Int, $after: String, $order: ContentOrder, $search: String, $tags: [ID!]) {
  notes(projectId: $p, first: $first, after: $after, orderBy: $order, search: $search, tagIds: $tags) { nodes { ${ROW} } endCursor hasNextPage }
}`;
const INSIGHTS = `query($p: ID!, $order: ContentOrder, $search: String, $tags: [ID!]) {
  insights(projectId: $p, orderBy: $order, search: $search, tagIds: $tags) { nodes { ${ROW} } endCursor hasNextPage }
}`;

interface Row {
  id: string;
  title: string;
  preview: string;
  highlightCount: number;
  rowTags: Array<{ id: string; title: string; color: string }>;
}
type Page = { nodes: Row[]; endCursor: string | null; hasNextPage: boolean };

describe('project lists: sort and filter', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let f: ContentFixture;
  let projectId: string;
  let gql: Gql;
  const notes: Record<string, string> = {};
  let tagA: string;
  let tagB: string;
  let insightId: string;

  beforeAll(async () => {
    ({ server, mail } = await startResearchServer());
    f = await contentFixture(server, mail, ['MANAGER', 'CONTRIBUTOR']);
    gql = f.contributor.gql;
    projectId = (await createProject(f.admin, 'Onboarding')).id;
    // Created in this order, so "newest" is the reverse; titles chosen so A–Z is yet another order.
    for (const [title, text] of [
      ['Kickoff', 'Pricing came up twice'],
      ['Awkward signup', 'The 100% discount_code field confused everyone'],
      ['Mobile', 'Nothing about money'],
    ] as const) {
      notes[title] = ok(
        await gql<{ createNote: { id: string } }>(
          'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
          { input: { projectId, title, content: doc(text) } },
        ),
      ).createNote.id;
    }
    const board = ok(
      await gql<{ createTagBoard: { id: string } }>(
        'mutation($p: ID!) { createTagBoard(input: { projectId: $p, title: "Board" }) { id } }',
        { p: projectId },
      ),
    ).createTagBoard.id;
    const tag = async (title: string, boardId = board) =>
      ok(
        await gql<{ createTag: { id: string } }>(
          'mutation($b: ID!, $t: String!) { createTag(input: { boardId: $b, title: $t, color: "#ff0000" }) { id } }',
          { b: boardId, t: title },
        ),
      ).createTag.id;
    tagA = await tag('Pricing');
    tagB = await tag('Churn');
    ok(
      await gql('mutation($n: ID!, $t: [ID!]!) { tagNote(noteId: $n, tagIds: $t) { id } }', {
        n: notes.Kickoff,
        t: [tagA, tagB],
      }),
    );
    ok(
      await gql('mutation($n: ID!, $t: [ID!]!) { tagNote(noteId: $n, tagIds: $t) { id } }', {
        n: notes.Mobile,
        t: [tagB],
      }),
    );
    // Two highlights on Kickoff, the first tagged and cited by the insight.
    const hl = async (start: number, end: number) =>
      ok(
        await gql<{ createHighlight: { id: string } }>(
          'mutation($n: ID!, $s: Int!, $e: Int!) { createHighlight(input: { noteId: $n, startOffset: $s, endOffset: $e }) { id } }',
          { n: notes.Kickoff, s: start, e: end },
        ),
      ).createHighlight.id;
    const h1 = await hl(0, 7);
    await hl(8, 12);
    ok(
      await gql('mutation($h: ID!, $t: [ID!]!) { tagHighlight(highlightId: $h, tagIds: $t) { id } }', {
        h: h1,
        t: [tagA],
      }),
    );
    insightId = ok(
      await gql<{ createInsight: { id: string } }>(
        'mutation($p: ID!) { createInsight(input: { projectId: $p, title: "People balk at pricing" }) { id } }',
        { p: projectId },
      ),
    ).createInsight.id;
    ok(
      await gql('mutation($i: ID!) { createInsight(input: { projectId: $i, title: "Unrelated" }) { id } }', {
        i: projectId,
      }),
    );
    ok(
      await gql('mutation($i: ID!, $h: ID!) { citeHighlight(insightId: $i, highlightId: $h) { id } }', {
        i: insightId,
        h: h1,
      }),
    );
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  const list = async (vars: Record<string, unknown>): Promise<Page> =>
    ok(await gql<{ notes: Page }>(NOTES, { p: projectId, ...vars })).notes;
  const titles = (page: Page) => page.nodes.map((n) => n.title);

  it('sorts by title A–Z and by last update, paging with the same keyset', async () => {
    expect(titles(await list({ order: 'TITLE_ASC' }))).toEqual(['Awkward signup', 'Kickoff', 'Mobile']);
    const first = await list({ order: 'TITLE_ASC', first: 2 });
    expect(first.hasNextPage).toBe(true);
    expect(titles(await list({ order: 'TITLE_ASC', first: 2, after: first.endCursor }))).toEqual(['Mobile']);

    expect(titles(await list({ order: 'CREATED_DESC' }))).toEqual(['Mobile', 'Awkward signup', 'Kickoff']);
    ok(
      await gql('mutation($id: ID!) { updateNote(id: $id, input: { title: "Kickoff call" }) { id } }', {
        id: notes.Kickoff,
      }),
    );
    expect(titles(await list({ order: 'UPDATED_DESC' }))[0]).toBe('Kickoff call');
  });

  it('shows each row’s tags and highlight count, an insight’s from the highlights it cites', async () => {
    const rows = new Map((await list({})).nodes.map((n) => [n.title, n]));
    expect(rows.get('Kickoff call')).toMatchObject({ highlightCount: 2, preview: 'Pricing came up twice' });
    expect(rows.get('Kickoff call')!.rowTags.map((t) => t.title)).toEqual(['Churn', 'Pricing']);
    expect(rows.get('Awkward signup')).toMatchObject({ highlightCount: 0, rowTags: [] });
    const insights = ok(await gql<{ insights: Page }>(INSIGHTS, { p: projectId, order: 'TITLE_ASC' })).insights.nodes;
    expect(insights.map((i) => [i.title, i.highlightCount, i.rowTags.map((t) => t.title)])).toEqual([
      ['People balk at pricing', 1, ['Pricing']],
      ['Unrelated', 0, []],
    ]);
  });

  it('filters by words in the title or text, and by tags', async () => {
    expect(titles(await list({ search: 'mobile', order: 'TITLE_ASC' }))).toEqual(['Mobile']);
    expect(titles(await list({ search: 'PRICING', order: 'TITLE_ASC' }))).toEqual(['Kickoff call']);
    // % and _ are letters here, not wildcards.
    expect(titles(await list({ search: '100%', order: 'TITLE_ASC' }))).toEqual(['Awkward signup']);
    expect(titles(await list({ search: 'discount_', order: 'TITLE_ASC' }))).toEqual(['Awkward signup']);
    expect(titles(await list({ search: 'a%b' }))).toEqual([]);
    expect(titles(await list({ tags: [tagB], order: 'TITLE_ASC' }))).toEqual(['Kickoff call', 'Mobile']);
    expect(titles(await list({ tags: [tagA], search: 'twice' }))).toEqual(['Kickoff call']);
    const insights = ok(await gql<{ insights: Page }>(INSIGHTS, { p: projectId, tags: [tagA] })).insights.nodes;
    expect(insights.map((i) => i.id)).toEqual([insightId]);
    expect(
      ok(await gql<{ insights: Page }>(INSIGHTS, { p: projectId, search: 'unrel' })).insights.nodes.map((i) => i.title),
    ).toEqual(['Unrelated']);
  });

  it('filters and sorts a project’s highlights the same way', async () => {
    const HL = `query($p: ID!, $order: ContentOrder, $search: String, $tags: [ID!]) { highlights(projectId: $p, orderBy: $order, search: $search, tagIds: $tags) { nodes { text } } }`;
    const texts = async (vars: Record<string, unknown>) =>
      ok(
        await gql<{ highlights: { nodes: Array<{ text: string }> } }>(HL, { p: projectId, ...vars }),
      ).highlights.nodes.map((h) => h.text);
    expect(await texts({ order: 'CREATED_ASC' })).toEqual(['Pricing', 'came']);
    expect(await texts({})).toEqual(['came', 'Pricing']);
    expect(await texts({ search: 'CAME' })).toEqual(['came']);
    expect(await texts({ tags: [tagA] })).toEqual(['Pricing']);
    const bad = failure(await gql(HL, { p: projectId, order: 'TITLE_ASC' }));
    expect(bad.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'orderBy' });
  });

  it('refuses bad sort and filter input, naming the field and the limit', async () => {
    const long = failure(await gql(NOTES, { p: projectId, search: 'x'.repeat(201) }));
    expect(long.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'search' });
    expect(long.message).toContain('search can have at most 200 characters.');
    const many = failure(await gql(NOTES, { p: projectId, tags: Array.from({ length: 21 }, () => tagA) }));
    expect(many.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'tagIds' });
    expect(many.message).toContain('tagIds can name at most 20 tags.');
    const badId = failure(await gql(NOTES, { p: projectId, tags: ['nope'] }));
    expect(badId.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT' });
    expect(badId.message).toContain('tagIds must be a valid id.');
    const order = failure(await gql(NOTES, { p: projectId, order: 'SIZE' }));
    expect(order.extensions?.errorCode).toMatch(/BAD_USER_INPUT|GRAPHQL_VALIDATION_FAILED/);
    const missing = failure(await gql(NOTES, { p: projectId, tags: ['00000000-0000-4000-8000-000000000000'] }));
    expect(missing.extensions?.errorCode).toBe('NOT_FOUND');
  });
});
