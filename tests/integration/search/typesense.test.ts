import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSearch, parseSearchParams } from '../../../modules/search/src/filters/index.ts';
import type { SearchAccess, SearchEngine, SearchResults } from '../../../modules/search/src/engine/engine.ts';
import { PostgresSearchEngine } from '../../../modules/search/src/engine/postgres/postgres-engine.ts';
import { typesenseClient } from '../../../modules/search/src/engine/typesense/client.ts';
import { TypesenseEngine } from '../../../modules/search/src/engine/typesense/engine.ts';
import { typesenseJobs, INDEX_QUEUE } from '../../../modules/search/src/engine/typesense/jobs.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { startTypesenseFake, type TypesenseFake } from '../../support/typesense-fake.ts';
import { buildWorld, startSearchServer, type SearchWorld } from './support.ts';

/**
 * The Typesense engine against a local server speaking Typesense's HTTP API (tests/support/
 * typesense-fake.ts), indexed from the research data of support.ts by a full reindex, and
 * checked against the PostgreSQL engine on the same compiled searches.
 */
let server: TestServer;
let mail: TestMailServer;
let w: SearchWorld;
let fake: TypesenseFake;
let engine: TypesenseEngine;
let postgres: PostgresSearchEngine;
const progress: Array<{ done: number; total: number }> = [];
const ALL: SearchAccess = { allProjects: true, projectIds: [] };

beforeAll(async () => {
  ({ server, mail } = await startSearchServer());
  w = await buildWorld(server, mail);
  fake = await startTypesenseFake();
  const db = server.fieldbook.db.app;
  engine = new TypesenseEngine({
    client: typesenseClient({ url: fake.url, apiKey: fake.apiKey }),
    db,
    collectionPrefix: 'test_',
  });
  postgres = new PostgresSearchEngine(db);
  await engine.reindex(w.f.ws.id, (p) => progress.push(p));
});
afterAll(async () => {
  await fake?.close();
  await server?.close();
  await mail?.close();
});

async function run(
  e: SearchEngine,
  input: Record<string, unknown>,
  access: SearchAccess = ALL,
): Promise<SearchResults> {
  const compiled = compileSearch(parseSearchParams(input), { now: new Date(), userId: w.f.ws.admin.user.id });
  return e.search({ workspaceId: w.f.ws.id, userId: w.f.ws.admin.user.id, access, compiled });
}
const keys = (r: SearchResults) => r.hits.map((h) => `${h.type}:${h.id}`).sort();
const titles = (r: SearchResults) => r.hits.map((h) => h.title).sort();

describe('Typesense engine', () => {
  it('creates one collection per result type, idempotently', async () => {
    expect([...fake.collections.keys()].sort()).toEqual(
      [
        'channel',
        'channel_datapoint',
        'highlight',
        'insight',
        'note',
        'person',
        'project',
        'project_category',
        'tag',
        'theme',
      ].map((t) => `test_${t}`),
    );
    const again = new TypesenseEngine({
      client: typesenseClient({ url: fake.url, apiKey: fake.apiKey }),
      db: server.fieldbook.db.app,
      collectionPrefix: 'test_',
    });
    await again.ensureCollections();
    expect(fake.collections.size).toBe(10);
    const note = fake.collections.get('test_note')!;
    expect(note.fields.map((f) => f.name)).toEqual(
      expect.arrayContaining(['workspaceId', 'projectId', 'filledAttributes', 'tagIds', 'cf_.*_l']),
    );
  });

  it('reindexes from PostgreSQL with progress, streaming through import with action=upsert', async () => {
    const last = progress.at(-1)!;
    expect(last.total).toBeGreaterThan(10);
    expect(last.done).toBe(last.total);
    expect(progress[0]!.done).toBe(0);
    expect(fake.collections.get('test_note')!.docs.size).toBe(4);
    const imports = fake.requests.filter((r) => r.path.endsWith('/documents/import'));
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.every((r) => r.query.action === 'upsert')).toBe(true);
    const interview = fake.collections.get('test_note')!.docs.get(w.notes.interview)!;
    expect(interview.tagIds).toEqual(expect.arrayContaining([w.tags.usability, w.tags.pricing]));
    expect(interview.filledAttributes).toEqual(
      expect.arrayContaining(['tagIds', 'personIds', `cf_${w.fields.score.replace(/-/g, '')}`]),
    );
  });

  const FORMS: Array<{ name: string; type?: string; form: (w: SearchWorld) => Record<string, unknown> }> = [
    { name: 'Title is', form: () => ({ field: 'Title', operator: 'is', values: { Title: { text: 'pricing call' } } }) },
    {
      name: 'Title is not',
      form: () => ({ field: 'Title', operator: 'isNot', values: { Title: { text: 'Pricing call' } } }),
    },
    {
      name: 'Title contains a word',
      form: () => ({ field: 'Title', operator: 'contains', values: { Title: { text: 'PRICING' } } }),
    },
    { name: 'Content empty', form: () => ({ field: 'Content', operator: 'empty', values: {} }) },
    { name: 'Content not empty', form: () => ({ field: 'Content', operator: 'notEmpty', values: {} }) },
    {
      name: 'Created before',
      form: () => ({ field: 'Created', operator: 'before', values: { Created: { relativeDate: '1w' } } }),
    },
    {
      name: 'Updated after',
      form: () => ({ field: 'Updated', operator: 'after', values: { Updated: { relativeDate: '1y' } } }),
    },
    {
      name: 'Tags one of',
      form: (w) => ({ field: 'Tags', operator: 'oneOf', values: { Tags: { tagMultiselect: [w.tags.pricing] } } }),
    },
    {
      name: 'Tags not one of',
      form: (w) => ({ field: 'Tags', operator: 'notOneOf', values: { Tags: { tagMultiselect: [w.tags.usability] } } }),
    },
    {
      name: 'Tags all of',
      form: (w) => ({
        field: 'Tags',
        operator: 'allOf',
        values: { Tags: { tagMultiselect: [w.tags.usability, w.tags.pricing] } },
      }),
    },
    { name: 'Tags empty', form: () => ({ field: 'Tags', operator: 'empty', values: {} }) },
    {
      name: 'Project not one of',
      form: (w) => ({ field: 'Project', operator: 'notOneOf', values: { Project: { projectMultiselect: [w.p2] } } }),
    },
    {
      name: 'Folder one of',
      form: (w) => ({
        field: 'ProjectCategory',
        operator: 'oneOf',
        values: { ProjectCategory: { folderMultiselect: [w.folderId] } },
      }),
    },
    {
      name: 'Archived is false',
      form: () => ({ field: 'Archived', operator: 'is', values: { Archived: { boolean: false } } }),
    },
    {
      name: 'Starred is true',
      form: () => ({ field: 'Starred', operator: 'is', values: { Starred: { boolean: true } } }),
    },
    {
      name: 'Starred is false',
      form: () => ({ field: 'Starred', operator: 'is', values: { Starred: { boolean: false } } }),
    },
    {
      name: 'Published is true',
      type: 'INSIGHT',
      form: () => ({ field: 'Published', operator: 'is', values: { Published: { boolean: true } } }),
    },
  ];

  it.each(FORMS)('answers the same items as PostgreSQL: $name', async ({ type, form }) => {
    const input = { resultTypes: [type ?? 'NOTE'], filter: { combinator: 'and', forms: [{ id: 'f1', ...form(w) }] } };
    const [ts, pg] = await Promise.all([run(engine, input), run(postgres, input)]);
    expect(keys(ts)).toEqual(keys(pg));
    expect(ts.countsByType).toEqual(pg.countsByType);
    expect(ts.totalCount).toBe(pg.totalCount);
  });

  it('filters on custom fields of every shape as PostgreSQL does', async () => {
    const custom = (key: keyof SearchWorld['fields'], fieldType: string) => ({
      id: `field.${w.fields[key]}`,
      fieldType,
      objectType: 'NOTE',
    });
    const v = (key: keyof SearchWorld['fields'], value: Record<string, unknown>) => ({
      [`field.${w.fields[key]}`]: value,
    });
    const forms = [
      {
        field: custom('segment', 'SELECT'),
        operator: 'oneOf',
        values: v('segment', { optionMultiselect: [w.options.smb] }),
      },
      {
        field: custom('segment', 'SELECT'),
        operator: 'notOneOf',
        values: v('segment', { optionMultiselect: [w.options.smb] }),
      },
      { field: custom('segment', 'SELECT'), operator: 'empty', values: {} },
      { field: custom('source', 'TEXT'), operator: 'is', values: v('source', { text: 'phone' }) },
      { field: custom('source', 'TEXT'), operator: 'isNot', values: v('source', { text: 'phone' }) },
      { field: custom('source', 'TEXT'), operator: 'contains', values: v('source', { text: 'zoom' }) },
      { field: custom('score', 'NUMBER'), operator: 'is', values: v('score', { double: 8 }) },
      { field: custom('score', 'NUMBER'), operator: 'isNot', values: v('score', { double: 8 }) },
      { field: custom('score', 'NUMBER'), operator: 'greater', values: v('score', { double: 5 }) },
      { field: custom('score', 'NUMBER'), operator: 'less', values: v('score', { double: 5 }) },
      { field: custom('score', 'NUMBER'), operator: 'notEmpty', values: {} },
      { field: custom('followUp', 'BOOLEAN'), operator: 'is', values: v('followUp', { boolean: true }) },
      { field: custom('followUp', 'BOOLEAN'), operator: 'is', values: v('followUp', { boolean: false }) },
      { field: custom('interviewed', 'DATETIME'), operator: 'after', values: v('interviewed', { relativeDate: '1y' }) },
      {
        field: custom('interviewed', 'DATETIME'),
        operator: 'before',
        values: v('interviewed', { relativeDate: '1y' }),
      },
    ];
    const sizes = new Set<number>();
    for (const form of forms) {
      const input = { resultTypes: ['NOTE'], filter: { combinator: 'and', forms: [{ id: 'f1', ...form }] } };
      const [ts, pg] = await Promise.all([run(engine, input), run(postgres, input)]);
      expect(keys(ts), JSON.stringify(form)).toEqual(keys(pg));
      sizes.add(pg.totalCount);
    }
    // The forms split the notes in different ways, so agreeing is not agreeing on nothing.
    expect([...sizes].sort()).toEqual([1, 2, 3]);
  });

  it('searches text across types with counts per type, marked snippets and paging', async () => {
    const all = await run(engine, { query: 'onboarding' });
    const pg = await run(postgres, { query: 'onboarding' });
    expect(keys(all)).toEqual(keys(pg));
    expect(all.countsByType).toEqual(pg.countsByType);
    expect(all.hits.find((h) => h.id === w.notes.interview)!.snippet).toContain('<mark>onboarding</mark>');
    expect(all.hits.every((h) => h.score > 0)).toBe(true);

    const zoe = await run(engine, { query: 'zoe', resultTypes: ['NOTE'] });
    expect(titles(zoe)).toEqual(['Customer interview with Zoë']);
    expect(zoe.hits[0]!.snippet).toContain('<mark>Zoë</mark>');
    // Typo tolerance is what Typesense is for.
    expect(titles(await run(engine, { query: 'onbaording ', resultTypes: ['INSIGHT'] }))).toEqual([
      'Onboarding friction',
    ]);

    const sorted = await run(engine, { resultTypes: ['NOTE'], sort: [{ field: 'Title', direction: 'ASC' }] });
    expect(sorted.hits.map((h) => h.title)).toEqual([
      'Blank page',
      'Churn survey',
      'Customer interview with Zoë',
      'Pricing call',
    ]);
    const page = await run(engine, {
      resultTypes: ['NOTE'],
      sort: [{ field: 'Title', direction: 'ASC' }],
      limit: 2,
      offset: 1,
    });
    expect(page.hits.map((h) => h.title)).toEqual(['Churn survey', 'Customer interview with Zoë']);
    expect(page.totalCount).toBe(4);
    const multi = fake.requests.filter((r) => r.path === '/multi_search').at(-1)!;
    const sent = (multi.body as { searches: Array<Record<string, unknown>> }).searches[0]!;
    expect(sent.sort_by).toBe('titleSort:asc,_text_match:desc,updatedAt:desc');
    expect(sent.filter_by).toBe(`workspaceId:=\`${w.f.ws.id}\``);
  });

  it('never answers an item of a project the searcher may not read', async () => {
    const onlyP1: SearchAccess = { allProjects: false, projectIds: [w.p1] };
    const ts = await run(engine, { query: 'customer' }, onlyP1);
    const pg = await run(postgres, { query: 'customer' }, onlyP1);
    expect(keys(ts)).toEqual(keys(pg));
    expect(ts.hits.some((h) => h.id === w.notes.churn)).toBe(false);
    expect(ts.hits.every((h) => h.projectId === w.p1 || h.projectId === null)).toBe(true);
    // With no readable project, only items outside projects remain (the person here).
    const none = await run(engine, { query: 'renee' }, { allProjects: false, projectIds: [] });
    expect(none.hits.map((h) => h.id)).toEqual([w.personId]);
    expect((await run(engine, { resultTypes: ['NOTE'] }, { allProjects: false, projectIds: [] })).totalCount).toBe(0);
    // Another workspace's documents share the collections but never its results.
    const other = await engine.search({
      workspaceId: randomUUID(),
      userId: null,
      access: ALL,
      compiled: compileSearch(parseSearchParams({ query: 'customer' }), { now: new Date(), userId: null }),
    });
    expect(other.totalCount).toBe(0);
  });

  it('keeps the index in step through the search.index job: upsert on change, delete when trashed', async () => {
    const [indexJob] = typesenseJobs(engine, server.fieldbook.db.app, { info: () => {} }).filter(
      (j) => j.queue === INDEX_QUEUE,
    );
    await server.fieldbook.db.owner('notes').where({ id: w.notes.blank }).update({ title: 'Kickoff agenda' });
    const job = {
      id: 'j1',
      queue: INDEX_QUEUE,
      retryCount: 0,
      data: { workspaceId: w.f.ws.id, type: 'NOTE', id: w.notes.blank },
    };
    await indexJob!.handler(job);
    await indexJob!.handler(job); // at least once: a repeat changes nothing
    expect(titles(await run(engine, { query: 'kickoff', resultTypes: ['NOTE'] }))).toEqual(['Kickoff agenda']);

    await server.fieldbook.db.owner('notes').where({ id: w.notes.blank }).update({ deleted_at: new Date() });
    await indexJob!.handler(job);
    expect((await run(engine, { query: 'kickoff', resultTypes: ['NOTE'] })).totalCount).toBe(0);
    expect(fake.collections.get('test_note')!.docs.has(w.notes.blank)).toBe(false);
  });

  it('drops documents a full reindex did not write', async () => {
    const stale = { ...fake.collections.get('test_note')!.docs.get(w.notes.churn)!, id: randomUUID(), indexedAt: 1 };
    fake.collections.get('test_note')!.docs.set(stale.id, stale);
    await engine.reindex(w.f.ws.id);
    expect(fake.collections.get('test_note')!.docs.has(stale.id)).toBe(false);
    expect(fake.collections.get('test_note')!.docs.has(w.notes.churn)).toBe(true);
  });

  it('is refused without the right API key', async () => {
    const wrong = new TypesenseEngine({
      client: typesenseClient({ url: fake.url, apiKey: 'wrong' }),
      db: server.fieldbook.db.app,
      collectionPrefix: 'test_',
    });
    await expect(wrong.ensureCollections()).rejects.toThrow(/401|api-key/i);
  });
});

describe('Typesense engine against a live server', () => {
  // Typesense cannot be installed on the machines tests usually run on; set TYPESENSE_URL (and
  // TYPESENSE_API_KEY) to run this against a real server.
  it.skipIf(!process.env.TYPESENSE_URL)('indexes and searches the same data', async () => {
    const live = new TypesenseEngine({
      client: typesenseClient({ url: process.env.TYPESENSE_URL!, apiKey: process.env.TYPESENSE_API_KEY ?? '' }),
      db: server.fieldbook.db.app,
      collectionPrefix: `fbtest_${Date.now()}_`,
    });
    const done = await live.reindex(w.f.ws.id);
    expect(done.done).toBe(done.total);
    for (const input of [
      { query: 'onboarding' },
      {
        resultTypes: ['NOTE'],
        filter: { combinator: 'and', forms: [{ id: 'f', field: 'Tags', operator: 'empty', values: {} }] },
      },
    ]) {
      const [ts, pg] = await Promise.all([run(live, input), run(postgres, input)]);
      expect(keys(ts)).toEqual(keys(pg));
    }
    const restricted = await run(live, { query: 'customer' }, { allProjects: false, projectIds: [w.p1] });
    expect(restricted.hits.some((h) => h.id === w.notes.churn)).toBe(false);
  });
});
