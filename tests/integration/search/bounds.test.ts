import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withOrderedJoins } from '../../../modules/search/src/engine/postgres/planner.ts';
import { PostgresSearchEngine } from '../../../modules/search/src/engine/postgres/postgres-engine.ts';
import { compileSearch, parseSearchParams } from '../../../modules/search/src/filters/index.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { contentFixture, createProject, doc, ok, type ContentFixture } from '../research/content-support.ts';
import { searchOk, startSearchServer } from './support.ts';

// Small bounds, so a handful of notes crosses them: relevance ranks at most 4 matches of a type
// (common ones among its 20 newest items), counts above 3 are estimated from a sample of 2 rows.
const BOUNDS = { rankCandidates: 4, exactCountLimit: 3, estimateSampleRows: 2 };

let server: TestServer;
let mail: TestMailServer;
let f: ContentFixture;
let projectId: string;
const roadmap: Record<'title' | 'twice' | 'once', string> = { title: '', twice: '', once: '' };
const launches: string[] = [];

async function createNote(title: string, text: string): Promise<string> {
  return ok(
    await f.admin<{ createNote: { id: string } }>(
      `mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }`,
      {
        input: { projectId, title, content: doc(text) },
      },
    ),
  ).createNote.id;
}

/** The search with no bounds at all: every match ranked, every count exact. */
async function exactSearch(input: Record<string, unknown>) {
  const engine = new PostgresSearchEngine(server.fieldbook.db.app, {
    rankCandidates: Infinity,
    exactCountLimit: Infinity,
    estimateSampleRows: 0,
  });
  const compiled = compileSearch(parseSearchParams(input), { now: new Date(), userId: f.ws.admin.user.id });
  return engine.search({
    workspaceId: f.ws.id,
    userId: f.ws.admin.user.id,
    access: { allProjects: true, projectIds: [] },
    compiled,
  });
}

beforeAll(async () => {
  ({ server, mail } = await startSearchServer({ search: BOUNDS }));
  f = await contentFixture(server, mail, []);
  projectId = (await createProject(f.admin, 'Planning study')).id;
  // Older notes that match none of the words below: the table outgrows the recency window (20).
  for (let i = 1; i <= 16; i++) await createNote(`Standup ${i}`, 'Nothing new this week.');
  // Three roadmap notes, written in the reverse of their relevance: one mention, two, then the title.
  roadmap.once = await createNote('Weekly sync', 'We touched on the roadmap briefly.');
  roadmap.twice = await createNote('Planning call', 'The roadmap came up, and the roadmap again at the end.');
  roadmap.title = await createNote('Roadmap review', 'Themes for next quarter.');
  // Six launch notes: more than the candidate bound and the exact count limit.
  for (let i = 1; i <= 6; i++)
    launches.push(
      await createNote(`Interview ${i}`, `They asked when the launch happens${i === 1 ? ', the launch date' : ''}.`),
    );
  // As autovacuum would: the estimate reads the table's size from its statistics.
  await server.fieldbook.db.owner.raw('analyze notes');
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
});

describe('ranking within the candidate bound', () => {
  it('gives exact ranking’s first page, in its order, when the matches fit the bound', async () => {
    const input = { query: 'roadmap', resultTypes: ['NOTE'], limit: 20 };
    const res = await searchOk(f.admin, input);
    expect(res.hits.map((h) => h.id)).toEqual([roadmap.title, roadmap.twice, roadmap.once]);
    expect(res.hits.map((h) => h.id)).toEqual((await exactSearch(input)).hits.map((h) => h.id));
    expect(res.countsByType.find((c) => c.type === 'NOTE')).toEqual({ type: 'NOTE', count: 3, isEstimate: false });
    expect(res.totalIsEstimate).toBe(false);
  });

  it('ranks the newest matches when they are common, the same ones from page to page', async () => {
    const first = await searchOk(f.admin, { query: 'launch', resultTypes: ['NOTE'], limit: 2 });
    const second = await searchOk(f.admin, { query: 'launch', resultTypes: ['NOTE'], limit: 2, offset: 2 });
    const shown = [...first.hits, ...second.hits].map((h) => h.id);
    // The four most recently written launch notes, each once, best first within each page.
    expect([...shown].sort()).toEqual(launches.slice(2).sort());
    for (const page of [first, second])
      expect(page.hits.map((h) => h.score)).toEqual([...page.hits.map((h) => h.score)].sort((a, b) => b - a));
    // The first launch note says "launch" twice and ranks first over every match, but is older than the candidates.
    expect((await exactSearch({ query: 'launch', resultTypes: ['NOTE'], limit: 2 })).hits[0]!.id).toBe(launches[0]);
    expect(shown).not.toContain(launches[0]);
  });

  it('tells a word still being typed is common from the newest items, as it does the whole word', async () => {
    // The planner knows no frequency for "launc"; six of the newest notes match it.
    const typed = await searchOk(f.admin, { query: 'launc', resultTypes: ['NOTE'], limit: 4 });
    const whole = await searchOk(f.admin, { query: 'launch', resultTypes: ['NOTE'], limit: 4 });
    expect(typed.hits.map((h) => h.id)).toEqual(whole.hits.map((h) => h.id));
    expect([...typed.hits.map((h) => h.id)].sort()).toEqual(launches.slice(2).sort());
  });
});

describe('counts above the exact limit', () => {
  it('estimates them, says so, and never below what it saw', async () => {
    const res = await searchOk(f.admin, { query: 'launch', limit: 0 });
    const notes = res.countsByType.find((c) => c.type === 'NOTE')!;
    expect(notes.isEstimate).toBe(true);
    expect(notes.count).toBeGreaterThanOrEqual(BOUNDS.rankCandidates);
    expect(res.totalIsEstimate).toBe(true);
    expect(res.totalCount).toBe(res.countsByType.reduce((sum, c) => sum + c.count, 0));
    // The other types matched nothing: exact zeros.
    expect(res.countsByType.filter((c) => c.type !== 'NOTE').every((c) => c.count === 0 && !c.isEstimate)).toBe(true);
    // The same search, the same estimate.
    expect((await searchOk(f.admin, { query: 'launch', limit: 5 })).countsByType).toEqual(res.countsByType);
  });

  it('counts exactly up to the limit without a text query, and estimates past it', async () => {
    const few = await searchOk(f.admin, { resultTypes: ['PROJECT'] });
    expect(few.countsByType).toEqual([{ type: 'PROJECT', count: 1, isEstimate: false }]);
    const many = await searchOk(f.admin, { resultTypes: ['NOTE'], limit: 1 });
    expect(many.hits).toHaveLength(1);
    expect(many.countsByType[0]).toMatchObject({ type: 'NOTE', isEstimate: true });
    expect(many.countsByType[0]!.count).toBeGreaterThan(BOUNDS.exactCountLimit);
  });

  it('reads a table smaller than the sample whole, and then the count is exact', async () => {
    const roomy = new PostgresSearchEngine(server.fieldbook.db.app, { ...BOUNDS, estimateSampleRows: 1000 });
    const compiled = compileSearch(parseSearchParams({ query: 'launch', resultTypes: ['NOTE'], limit: 0 }), {
      now: new Date(),
      userId: f.ws.admin.user.id,
    });
    const res = await roomy.search({
      workspaceId: f.ws.id,
      userId: f.ws.admin.user.id,
      access: { allProjects: true, projectIds: [] },
      compiled,
    });
    expect(res.countsByType).toEqual([{ type: 'NOTE', count: 6, isEstimate: false }]);
    expect(res.totalIsEstimate).toBe(false);
  });
});

describe('a word being typed', () => {
  it('is looked for among as many of the newest items as its share there says, further than a whole word', async () => {
    // Eight of the sixteen newest notes match "quarterl": too few for the whole-word window (4 in
    // 20), enough for a word being typed, whose window grows to what its share needs.
    const quarterly: string[] = [];
    for (let i = 1; i <= 8; i++) {
      quarterly.push(await createNote(`Quarterly check ${i}`, 'Quarterly numbers.'));
      await createNote(`Filler ${i}`, 'Nothing to report.');
    }
    await server.fieldbook.db.owner.raw('analyze notes');
    const typed = await searchOk(f.admin, { query: 'quarterl', resultTypes: ['NOTE'], limit: 4 });
    // The four newest matches, not the first four the text index hands over.
    expect(typed.hits.map((h) => h.id).sort()).toEqual(quarterly.slice(4).sort());
    expect(typed.countsByType.find((c) => c.type === 'NOTE')?.isEstimate).toBe(true);
  });
});

describe('the walk through the newest items', () => {
  it('holds the planner to nested loops for its statement only, then gives the settings back', async () => {
    const joins = async (trx: Parameters<Parameters<typeof server.fieldbook.db.app.transaction>[0]>[0]) =>
      (
        (await trx.raw(
          `select current_setting('enable_hashjoin') as hash, current_setting('enable_mergejoin') as merge`,
        )) as { rows: Array<{ hash: string; merge: string }> }
      ).rows[0];
    await server.fieldbook.db.app.transaction(async (trx) => {
      expect(await withOrderedJoins(trx, () => joins(trx))).toEqual({ hash: 'off', merge: 'off' });
      expect(await joins(trx)).toEqual({ hash: 'on', merge: 'on' });
      await trx.raw(`select set_config('enable_mergejoin', 'off', true)`);
      await expect(withOrderedJoins(trx, () => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
      expect(await joins(trx)).toEqual({ hash: 'on', merge: 'off' });
    });
  });
});
