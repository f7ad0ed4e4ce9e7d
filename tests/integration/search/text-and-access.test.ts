import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { createProject, doc, failure, ok } from '../research/content-support.ts';
import { buildWorld, runSearch, searchOk, startSearchServer, type SearchWorld } from './support.ts';

let server: TestServer;
let mail: TestMailServer;
let w: SearchWorld;
let secret: string;
let secretNote: string;

beforeAll(async () => {
  ({ server, mail } = await startSearchServer());
  w = await buildWorld(server, mail);
  // A restricted project (markup: none) that only the viewer is granted.
  secret = (await createProject(w.f.admin, 'Secret pricing roadmap')).id;
  secretNote = ok(
    await w.f.admin<{ createNote: { id: string } }>(
      `mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }`,
      {
        input: { projectId: secret, title: 'Pricing board minutes', content: doc('Confidential pricing discussion.') },
      },
    ),
  ).createNote.id;
  ok(
    await w.f.admin(`mutation($id: ID!, $m: JSON!) { updateProjectAccess(projectId: $id, permissions: $m) { id } }`, {
      id: secret,
      m: { groups: { markup: 'none' }, users: { [w.f.viewer.user.id]: 'read' } },
    }),
  );
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
});

const titles = (hits: Array<{ title: string }>) => hits.map((h) => h.title).sort();

describe('text matching', () => {
  it('matches a quoted phrase exactly, words in any order otherwise', async () => {
    expect(titles((await searchOk(w.f.admin, { query: '"onboarding flow"', resultTypes: ['NOTE'] })).hits)).toEqual([
      'Customer interview with Zoë',
    ]);
    expect((await searchOk(w.f.admin, { query: '"flow onboarding"', resultTypes: ['NOTE'] })).totalCount).toBe(0);
    expect(titles((await searchOk(w.f.admin, { query: 'flow onboarding ', resultTypes: ['NOTE'] })).hits)).toEqual([
      'Customer interview with Zoë',
    ]);
  });

  it('matches the word being typed as a prefix, but a finished word only whole', async () => {
    expect(titles((await searchOk(w.f.admin, { query: 'onboa', resultTypes: ['NOTE', 'INSIGHT'] })).hits)).toEqual([
      'Customer interview with Zoë',
      'Onboarding friction',
    ]);
    expect(titles((await searchOk(w.f.admin, { query: 'on', resultTypes: ['NOTE', 'INSIGHT'] })).hits)).toEqual([
      'Customer interview with Zoë',
      'Onboarding friction',
    ]);
    expect(titles((await searchOk(w.f.admin, { query: '"clear" pric', resultTypes: ['NOTE'] })).hits)).toEqual([
      'Customer interview with Zoë',
    ]);
    // A word followed by more of the query is finished: it matches whole words only (the phrase rules out close spellings).
    expect((await searchOk(w.f.admin, { query: 'onboa "pricing was clear"', resultTypes: ['NOTE'] })).totalCount).toBe(
      0,
    );
    expect(
      (await searchOk(w.f.admin, { query: 'onboarding "pricing was clear"', resultTypes: ['NOTE'] })).totalCount,
    ).toBe(1);
  });

  it('ignores accents both ways and marks the accented word in the snippet', async () => {
    const zoe = await searchOk(w.f.admin, { query: 'zoe', resultTypes: ['NOTE'] });
    expect(titles(zoe.hits)).toEqual(['Customer interview with Zoë']);
    expect(zoe.hits[0]!.snippet).toContain('<mark>Zoë</mark>');
    const renee = await searchOk(w.f.admin, { query: 'RENEE', resultTypes: ['PERSON'] });
    expect(renee.hits.map((h) => h.id)).toEqual([w.personId]);
    expect((await searchOk(w.f.admin, { query: 'dupónt', resultTypes: ['PERSON'] })).totalCount).toBe(1);
  });

  it('finds close spellings when nothing matches word for word', async () => {
    const typo = await searchOk(w.f.admin, { query: 'custmer', resultTypes: ['NOTE'] });
    expect(titles(typo.hits)).toEqual(['Churn survey', 'Customer interview with Zoë']);
    expect(typo.hits.every((h) => h.score > 0)).toBe(true);
    // A quoted phrase asks for exactly that: no close spellings.
    expect((await searchOk(w.f.admin, { query: '"custmer"', resultTypes: ['NOTE'] })).totalCount).toBe(0);
  });

  it('escapes the snippet and marks only the matches', async () => {
    const res = await searchOk(w.f.admin, { query: 'support', resultTypes: ['NOTE'] });
    expect(res.hits).toHaveLength(1);
    const snippet = res.hits[0]!.snippet!;
    expect(snippet).toContain('<mark>support</mark>');
    expect(snippet).toContain('&amp; &quot;bugs&quot; &lt; 5');
    expect(snippet.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
  });

  it('ranks title matches above content matches', async () => {
    const res = await searchOk(w.f.admin, { query: 'pricing', resultTypes: ['NOTE'] });
    expect(
      res.hits
        .slice(0, 2)
        .map((h) => h.title)
        .sort(),
    ).toEqual(['Pricing board minutes', 'Pricing call']);
    expect(res.hits[2]!.title).toBe('Customer interview with Zoë');
    expect(res.hits[1]!.score).toBeGreaterThan(res.hits[2]!.score);
  });

  it('matches project titles alone in projects-only mode', async () => {
    ok(
      await w.f.admin(`mutation($id: ID!, $i: UpdateProjectInput!) { updateProject(id: $id, input: $i) { id } }`, {
        id: w.p2,
        i: { readme: doc('Why onboarding matters') },
      }),
    );
    expect(titles((await searchOk(w.f.admin, { query: 'onboarding', resultTypes: ['PROJECT'] })).hits)).toEqual([
      'Onboarding study',
    ]);
    expect(
      titles((await searchOk(w.f.admin, { query: 'onboarding', resultTypes: ['PROJECT', 'NOTE'] })).hits),
    ).toContain('Retention study');
  });
});

describe('counts per type and paging', () => {
  it('counts hits per result type in the default order, whatever the page', async () => {
    const all = await searchOk(w.f.admin, { query: 'pricing' });
    const counts = Object.fromEntries(all.countsByType.map((c) => [c.type, c.count]));
    // Highlights "enterprise pricing" and "Pricing was clear"; the Pricing tag; notes (the secret one too, for an admin);
    // the project "Secret pricing roadmap".
    expect(counts).toMatchObject({
      INSIGHT: 0,
      HIGHLIGHT: 2,
      TAG: 1,
      NOTE: 3,
      PROJECT: 1,
      PERSON: 0,
      PROJECT_CATEGORY: 0,
    });
    expect(all.totalCount).toBe(7);
    expect(all.countsByType.map((c) => c.type)).toEqual([
      'INSIGHT',
      'HIGHLIGHT',
      'TAG',
      'NOTE',
      'PROJECT',
      'CHANNEL',
      'THEME',
      'PERSON',
      'PROJECT_CATEGORY',
      'CHANNEL_DATAPOINT',
    ]);
    expect(all.hits.map((h) => h.type)).toEqual(['HIGHLIGHT', 'HIGHLIGHT', 'TAG', 'NOTE', 'NOTE', 'NOTE', 'PROJECT']);

    // Counts only (limit 0), as the search screen asks for its tabs: the same counts, no hits.
    const countsOnly = await searchOk(w.f.admin, { query: 'pricing', limit: 0 });
    expect(countsOnly.hits).toEqual([]);
    expect(countsOnly.countsByType).toEqual(all.countsByType);
    expect(countsOnly.totalCount).toBe(7);

    const page = await searchOk(w.f.admin, { query: 'pricing', limit: 2, offset: 2 });
    expect(page.totalCount).toBe(7);
    expect(page.hits.map((h) => h.id)).toEqual(all.hits.slice(2, 4).map((h) => h.id));
    const tagHit = all.hits.find((h) => h.type === 'TAG')!;
    expect(tagHit).toMatchObject({ id: w.tags.pricing, projectId: w.p1, projectTitle: 'Onboarding study' });
  });

  it('answers BAD_USER_INPUT naming the field for parameters out of bounds', async () => {
    const limit = failure(await runSearch(w.f.admin, { limit: 1001 }));
    expect(limit.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'limit' });
    const query = failure(await runSearch(w.f.admin, { query: 'x'.repeat(2001) }));
    expect(query.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'query' });
    expect(query.message).toContain('2000');
    const filter = failure(await runSearch(w.f.admin, { filter: '{not json' }));
    expect(filter.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'filter' });
  });
});

describe('access', () => {
  it('never answers an item from a project the searcher cannot read', async () => {
    for (const input of [{ query: 'pricing' }, {}, { resultTypes: ['NOTE', 'PROJECT'] }, { projectIds: [secret] }]) {
      const res = await searchOk(w.f.contributor.gql, { ...input, limit: 1000 });
      expect(res.hits.filter((h) => h.projectId === secret || h.id === secret || h.id === secretNote)).toEqual([]);
    }
    const contributor = await searchOk(w.f.contributor.gql, { query: 'pricing' });
    expect(contributor.countsByType.find((c) => c.type === 'NOTE')!.count).toBe(2);
    expect(contributor.countsByType.find((c) => c.type === 'PROJECT')!.count).toBe(0);
    expect(contributor.totalCount).toBe(5);
  });

  it('answers it to a member the permission map grants read, and to managers', async () => {
    for (const gql of [w.f.viewer.gql, w.f.manager.gql]) {
      const res = await searchOk(gql, { query: 'confidential' });
      expect(res.hits.map((h) => h.id)).toEqual([secretNote]);
      expect(res.hits[0]).toMatchObject({ projectId: secret, projectTitle: 'Secret pricing roadmap' });
    }
  });

  it('hides items in the trash', async () => {
    ok(await w.f.admin(`mutation($id: ID!) { deleteNote(id: $id) }`, { id: w.notes.blank }));
    const res = await searchOk(w.f.admin, { resultTypes: ['NOTE'] });
    expect(res.hits.map((h) => h.id)).not.toContain(w.notes.blank);
    expect(res.totalCount).toBe(4);
  });
});

describe('the search index on the PostgreSQL engine', () => {
  const REINDEX = 'mutation { reindexSearch { engine state processed total } }';
  const PROGRESS = 'query { searchReindex { engine state processed total } }';

  it('says no reindex is needed, to workspace admins only', async () => {
    const notNeeded = { engine: 'postgres', state: 'NOT_NEEDED', processed: 0, total: 0 };
    expect(ok(await w.f.admin<{ reindexSearch: unknown }>(REINDEX)).reindexSearch).toEqual(notNeeded);
    expect(ok(await w.f.admin<{ searchReindex: unknown }>(PROGRESS)).searchReindex).toEqual(notNeeded);
    expect(failure(await w.f.manager.gql(REINDEX)).extensions?.errorCode).toBe('FORBIDDEN');
    const jobs = (await server.fieldbook.db.owner.raw(
      `select count(*)::int as n from pgboss.job where name = 'search.reindex'`,
    )) as { rows: Array<{ n: number }> };
    expect(jobs.rows[0]!.n).toBe(0);
  });

  it('keeps the outbox switched off, so writes leave nothing behind for an index', async () => {
    const owner = server.fieldbook.db.owner;
    expect((await owner.raw('select 1 from search_outbox_switch')).rows).toHaveLength(0);
    ok(
      await w.f.admin(`mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }`, {
        input: { projectId: w.p2, title: 'Outbox check', content: doc('Nothing to index.') },
      }),
    );
    expect((await owner.raw('select count(*)::int as n from search_changes')).rows[0].n).toBe(0);
  });
});

describe('search on PostgreSQL under row-level security', () => {
  it('answers highlight hits with the note they were made in', async () => {
    const res = await searchOk(w.f.admin, { query: 'onboarding', resultTypes: ['HIGHLIGHT', 'NOTE'] });
    const flow = res.hits.find((h) => h.id === w.highlights.flow);
    expect(flow).toMatchObject({ type: 'HIGHLIGHT', parentId: w.notes.interview });
    expect(res.hits.filter((h) => h.type === 'NOTE').every((h) => h.parentId === null)).toBe(true);
  });

  it('declares the text match functions leakproof at start, so row-level security leaves their indexes usable', async () => {
    // Under row-level security only a LEAKPROOF function's condition may become an index condition.
    const rows = (await server.fieldbook.db.owner.raw(
      `select p.oid::regprocedure::text as fn, p.proleakproof as leakproof from pg_proc p
        where p.oid in ('ts_match_vq(tsvector, tsquery)'::regprocedure, 'textlike(text, text)'::regprocedure,
                        'word_similarity_op(text, text)'::regprocedure, 'word_similarity_commutator_op(text, text)'::regprocedure,
                        'arrayoverlap(anyarray, anyarray)'::regprocedure)`,
    )) as { rows: Array<{ fn: string; leakproof: boolean }> };
    expect(rows.rows).toHaveLength(5);
    expect(rows.rows.filter((r) => !r.leakproof)).toEqual([]);
  });
});

describe("a highlight's tags as search filters them", () => {
  const tagged = async (tagIds: string[]): Promise<string[]> =>
    (
      await searchOk(w.f.admin, {
        resultTypes: ['HIGHLIGHT'],
        filter: {
          combinator: 'and',
          forms: [{ id: 't', field: 'Tags', operator: 'oneOf', values: { Tags: { tagMultiselect: tagIds } } }],
        },
      })
    ).hits
      .map((h) => h.id)
      .sort();
  const tagMutation = (name: string, args: Record<string, unknown>) =>
    w.f.admin(`mutation($h: ID!, $t: [ID!]!) { ${name}(highlightId: $h, tagIds: $t) { id } }`, args);
  const createTag = async (title: string): Promise<string> => {
    const board = ok(
      await w.f.admin<{ createTagBoard: { id: string } }>(
        `mutation($input: CreateTagBoardInput!) { createTagBoard(input: $input) { id } }`,
        { input: { projectId: w.p1, title: `Board ${title}` } },
      ),
    ).createTagBoard.id;
    return ok(
      await w.f.admin<{ createTag: { id: string } }>(
        `mutation($input: CreateTagInput!) { createTag(input: $input) { id } }`,
        { input: { boardId: board, title } },
      ),
    ).createTag.id;
  };

  it('follows tagging, untagging, merging and deleting tags in the same transaction', async () => {
    const { flow, enterprise, clear } = w.highlights;
    const a = await createTag('Follow A');
    const b = await createTag('Follow B');
    expect(await tagged([a])).toEqual([]);
    ok(await tagMutation('tagHighlight', { h: clear, t: [a] }));
    ok(await tagMutation('tagHighlight', { h: enterprise, t: [a, b] }));
    expect(await tagged([a])).toEqual([clear, enterprise].sort());
    expect(await tagged([b])).toEqual([enterprise]);
    ok(await tagMutation('untagHighlight', { h: enterprise, t: [a] }));
    expect(await tagged([a])).toEqual([clear]);
    // Merging moves B's highlights to A; deleting A leaves the highlights with none of them.
    ok(
      await w.f.admin(`mutation($s: [ID!]!, $t: ID!) { mergeTags(sourceIds: $s, targetId: $t) { id } }`, {
        s: [b],
        t: a,
      }),
    );
    expect(await tagged([a])).toEqual([clear, enterprise].sort());
    expect(await tagged([b])).toEqual([]);
    ok(await w.f.admin(`mutation($id: ID!) { deleteTag(id: $id) }`, { id: a }));
    expect(await tagged([a])).toEqual([]);
    // The fixture's own tags are where they were, each highlight's copy equal to its taggings.
    expect(await tagged([w.tags.pricing])).toEqual([flow, enterprise].sort());
    const drift = (await server.fieldbook.db.owner.raw(
      `select h.id from highlights h where h.workspace_id = ? and h.tag_ids is distinct from
         coalesce((select array_agg(ht.tag_id order by ht.tag_id) from highlight_tags ht where ht.highlight_id = h.id), '{}')`,
      [w.f.ws.id],
    )) as { rows: unknown[] };
    expect(drift.rows).toEqual([]);
  });

  it('starts a new highlight with no tags, whatever its insert says', async () => {
    const [row] = (await server.fieldbook.db.owner('highlights').where({ id: w.highlights.flow }).select('*')) as Array<
      Record<string, unknown>
    >;
    const { search_vector: _generated, ...columns } = row!;
    const copy = { ...columns, id: '00000000-0000-4000-8000-0000000000aa' };
    await server.fieldbook.db.owner('highlights').insert(copy);
    try {
      const [inserted] = (await server.fieldbook.db
        .owner('highlights')
        .where({ id: copy.id })
        .select('tag_ids')) as Array<{ tag_ids: string[] }>;
      expect((row as { tag_ids: string[] }).tag_ids.length).toBeGreaterThan(0);
      expect(inserted!.tag_ids).toEqual([]);
    } finally {
      await server.fieldbook.db.owner('highlights').where({ id: copy.id }).delete();
    }
  });
});
