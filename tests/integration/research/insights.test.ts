import { describe, expect, it } from 'vitest';
import { contentFixture, createProject, doc, failure, ok, useResearchFixture } from './content-support.ts';

const FIELDS = 'id projectId title contentText summary published publishedAt locked archived rank';
const CREATE = `mutation($input: CreateInsightInput!) { createInsight(input: $input) { ${FIELDS} } }`;
const UPDATE = `mutation($id: ID!, $input: UpdateInsightInput!) { updateInsight(id: $id, input: $input) { ${FIELDS} } }`;
const PUBLISH = `mutation($id: ID!) { publishInsight(id: $id) { ${FIELDS} } }`;
const UNPUBLISH = `mutation($id: ID!) { unpublishInsight(id: $id) { ${FIELDS} } }`;
const INSIGHT = `query($id: ID!) { insight(id: $id) { ${FIELDS} } }`;
const INSIGHTS = `query($p: ID!, $published: Boolean, $first: Int, $after: String) {
  insights(projectId: $p, published: $published, first: $first, after: $after) { nodes { id title } endCursor hasNextPage }
}`;
const MOVE = 'mutation($id: ID!, $p: ID, $n: ID) { moveInsight(id: $id, previousId: $p, nextId: $n) { id rank } }';

interface Insight {
  id: string;
  title: string;
  contentText: string;
  summary: unknown;
  published: boolean;
  publishedAt: string | null;
  locked: boolean;
}
interface Page {
  insights: { nodes: Array<{ id: string; title: string }>; endCursor: string | null; hasNextPage: boolean };
}

describe('insights', () => {
  const f = useResearchFixture('Findings');

  const create = async (title: string, extra: Record<string, unknown> = {}) =>
    ok(
      await f.contributor.gql<{ createInsight: Insight }>(CREATE, {
        input: { projectId: f.projectId, title, ...extra },
      }),
    ).createInsight;

  it('creates unpublished insights and publishes and unpublishes them', async () => {
    const insight = await create('People skip onboarding', { content: doc('Most skip it.'), summary: doc('Skipped') });
    expect(insight).toMatchObject({
      title: 'People skip onboarding',
      contentText: 'Most skip it.',
      summary: doc('Skipped'),
      published: false,
      publishedAt: null,
    });
    const published = ok(
      await f.contributor.gql<{ publishInsight: Insight }>(PUBLISH, { id: insight.id }),
    ).publishInsight;
    expect(published.published).toBe(true);
    expect(Date.parse(published.publishedAt!)).toBeGreaterThan(Date.now() - 60_000);
    // Publishing again keeps the first publication time.
    expect(
      ok(await f.contributor.gql<{ publishInsight: Insight }>(PUBLISH, { id: insight.id })).publishInsight.publishedAt,
    ).toBe(published.publishedAt);
    const draft = await create('Still a draft');
    expect(
      ok(await f.viewer.gql<Page>(INSIGHTS, { p: f.projectId, published: true })).insights.nodes.map((n) => n.id),
    ).toEqual([insight.id]);
    expect(
      ok(await f.viewer.gql<Page>(INSIGHTS, { p: f.projectId, published: false })).insights.nodes.map((n) => n.id),
    ).toEqual([draft.id]);
    const back = ok(
      await f.contributor.gql<{ unpublishInsight: Insight }>(UNPUBLISH, { id: insight.id }),
    ).unpublishInsight;
    expect(back).toMatchObject({ published: false, publishedAt: null });
    expect(ok(await f.viewer.gql<Page>(INSIGHTS, { p: f.projectId, published: true })).insights.nodes).toEqual([]);
  });

  it('enforces limits, roles and locks', async () => {
    const insight = await create('Guarded insight');
    const long = failure(
      await f.contributor.gql(CREATE, { input: { projectId: f.projectId, title: 'i'.repeat(201) } }),
    );
    expect(long.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.title' });
    expect(long.message).toContain('An insight title can be at most 200 characters long.');
    expect(
      failure(await f.contributor.gql(UPDATE, { id: insight.id, input: { summary: doc('s'.repeat(5_000_001)) } }))
        .extensions,
    ).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.summary' });
    expect(
      failure(await f.viewer.gql(CREATE, { input: { projectId: f.projectId, title: 'No' } })).extensions?.errorCode,
    ).toBe('FORBIDDEN');
    expect(failure(await f.viewer.gql(PUBLISH, { id: insight.id })).extensions?.errorCode).toBe('FORBIDDEN');
    ok(await f.manager.gql(UPDATE, { id: insight.id, input: { locked: true } }));
    expect(failure(await f.contributor.gql(PUBLISH, { id: insight.id })).message).toBe(
      'This insight is locked; only managers and admins can edit it.',
    );
    expect(
      ok(await f.manager.gql<{ publishInsight: Insight }>(PUBLISH, { id: insight.id })).publishInsight.published,
    ).toBe(true);
    expect(
      failure(await f.contributor.gql('mutation($id: ID!) { deleteInsight(id: $id) }', { id: insight.id })).extensions
        ?.errorCode,
    ).toBe('FORBIDDEN');
    ok(await f.admin('mutation($id: ID!) { deleteInsight(id: $id) }', { id: insight.id }));
    expect(failure(await f.viewer.gql(INSIGHT, { id: insight.id })).extensions?.errorCode).toBe('NOT_FOUND');
  });

  it('answers NOT_FOUND across workspaces and orders and pages insights', async () => {
    const other = await contentFixture(f.server, f.mail, []);
    const theirs = ok(
      await other.admin<{ createInsight: Insight }>(CREATE, {
        input: { projectId: (await createProject(other.admin, 'T')).id, title: 'Theirs' },
      }),
    ).createInsight;
    expect(failure(await f.admin(INSIGHT, { id: theirs.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await f.admin(PUBLISH, { id: theirs.id })).extensions?.errorCode).toBe('NOT_FOUND');

    const p = (await createProject(f.admin, 'Ordered')).id;
    const made = [];
    for (const title of ['One', 'Two', 'Three'])
      made.push(
        ok(await f.admin<{ createInsight: Insight }>(CREATE, { input: { projectId: p, title } })).createInsight,
      );
    ok(await f.admin(MOVE, { id: made[2]!.id, n: made[0]!.id }));
    const page = ok(await f.viewer.gql<Page>(INSIGHTS, { p, first: 2 })).insights;
    expect(page.nodes.map((n) => n.title)).toEqual(['Three', 'One']);
    const rest = ok(await f.viewer.gql<Page>(INSIGHTS, { p, first: 2, after: page.endCursor })).insights;
    expect(rest.nodes.map((n) => n.title)).toEqual(['Two']);
    expect(rest.hasNextPage).toBe(false);
  });
});
