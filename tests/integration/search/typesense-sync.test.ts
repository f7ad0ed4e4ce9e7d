import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import research from '../../../modules/research/src/index.ts';
import search from '../../../modules/search/src/index.ts';
import { typesenseClient } from '../../../modules/search/src/engine/typesense/client.ts';
import { TypesenseEngine } from '../../../modules/search/src/engine/typesense/engine.ts';
import { CHANGES_QUEUE, typesenseJobs } from '../../../modules/search/src/engine/typesense/jobs.ts';
import { drainWorkspace, workspacesWithChanges } from '../../../modules/search/src/engine/typesense/outbox.ts';
import { withTenant } from '../../../core/src/db/tenancy.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { startTypesenseFake, type TypesenseFake } from '../../support/typesense-fake.ts';
import { contentFixture, createProject, doc, failure, ok, type ContentFixture } from '../research/content-support.ts';
import { searchOk } from './support.ts';

/**
 * A Fieldbook configured with Typesense (the local server of tests/support/typesense-fake.ts):
 * research content changed through the API reaches the index through the outbox the triggers
 * fill and the drain job empties, with no call from the research code; reindexes on demand.
 */
let fake: TypesenseFake;
let server: TestServer;
let mail: TestMailServer;
let f: ContentFixture;
let projectId: string;

const owner = () => server.fieldbook.db.owner;
const noteDocs = () => fake.collections.get('fieldbook_note')?.docs ?? new Map<string, Record<string, unknown>>();
const pending = async () =>
  Number(
    ((await owner().raw('select count(*)::int as n from search_changes')) as { rows: Array<{ n: number }> }).rows[0]!.n,
  );

/** Retries `check` until it passes (the drain runs in the server's own job worker). */
async function eventually(check: () => Promise<void> | void, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() - started > timeoutMs) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const ids = (hits: Array<{ id: string }>) => hits.map((h) => h.id).sort();
const createNote = async (title: string, text: string, project = projectId) =>
  ok(
    await f.admin<{ createNote: { id: string } }>(
      `mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }`,
      { input: { projectId: project, title, content: doc(text) } },
    ),
  ).createNote.id;

beforeAll(async () => {
  fake = await startTypesenseFake();
  mail = await startMailServer();
  server = await startTestServer(
    { smtpUrl: mail.url, typesense: { url: fake.url, apiKey: fake.apiKey } },
    { modules: [research, search] },
  );
  // The process turns the outbox on as it starts.
  await eventually(async () => expect((await owner().raw('select 1 from search_outbox_switch')).rows).toHaveLength(1));
  f = await contentFixture(server, mail);
  projectId = (await createProject(f.admin, 'Field study')).id;
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
  await fake?.close();
});

describe('keeping Typesense in step', () => {
  it('indexes a note created through the API, follows its edits and drops it when deleted', async () => {
    const noteId = await createNote('Zanzibar visit', 'Notes from the harbour interviews.');
    await eventually(async () =>
      expect(ids((await searchOk(f.admin, { query: 'zanzibar', resultTypes: ['NOTE'] })).hits)).toEqual([noteId]),
    );
    // Answered by Typesense, not by the tables.
    expect(fake.requests.some((r) => r.path === '/multi_search')).toBe(true);

    ok(
      await f.admin(`mutation($id: ID!, $input: UpdateNoteInput!) { updateNote(id: $id, input: $input) { id } }`, {
        id: noteId,
        input: { title: 'Mombasa visit' },
      }),
    );
    await eventually(async () => {
      expect(ids((await searchOk(f.admin, { query: 'mombasa', resultTypes: ['NOTE'] })).hits)).toEqual([noteId]);
      expect((await searchOk(f.admin, { query: 'zanzibar', resultTypes: ['NOTE'] })).totalCount).toBe(0);
    });

    ok(await f.admin(`mutation($id: ID!) { deleteNote(id: $id) }`, { id: noteId }));
    await eventually(async () => {
      expect((await searchOk(f.admin, { query: 'mombasa', resultTypes: ['NOTE'] })).totalCount).toBe(0);
      expect(noteDocs().has(noteId)).toBe(false);
    });
    await eventually(async () => expect(await pending()).toBe(0));
  });

  it('follows changes that reach a note from elsewhere: its highlight and the tag on it', async () => {
    const noteId = await createNote('Harbour survey', 'Fishermen want cold storage near the docks.');
    const start = 'Fishermen want cold storage'.length - 'cold storage'.length;
    const highlightId = ok(
      await f.admin<{ createHighlight: { id: string } }>(
        `mutation($input: CreateHighlightInput!) { createHighlight(input: $input) { id } }`,
        {
          input: { noteId, startOffset: start, endOffset: start + 'cold storage'.length },
        },
      ),
    ).createHighlight.id;
    const board = ok(
      await f.admin<{ createTagBoard: { id: string } }>(
        `mutation($input: CreateTagBoardInput!) { createTagBoard(input: $input) { id } }`,
        { input: { projectId, title: 'Needs' } },
      ),
    ).createTagBoard.id;
    const tagId = ok(
      await f.admin<{ createTag: { id: string } }>(
        `mutation($input: CreateTagInput!) { createTag(input: $input) { id } }`,
        { input: { boardId: board, title: 'Storage' } },
      ),
    ).createTag.id;
    ok(
      await f.admin(`mutation($h: ID!, $t: [ID!]!) { tagHighlight(highlightId: $h, tagIds: $t) { id } }`, {
        h: highlightId,
        t: [tagId],
      }),
    );

    const tagged = {
      resultTypes: ['NOTE'],
      filter: {
        combinator: 'and',
        forms: [{ id: 't', field: 'Tags', operator: 'oneOf', values: { Tags: { tagMultiselect: [tagId] } } }],
      },
    };
    await eventually(async () => {
      expect(ids((await searchOk(f.admin, tagged)).hits)).toEqual([noteId]);
      expect(ids((await searchOk(f.admin, { query: 'cold storage', resultTypes: ['HIGHLIGHT'] })).hits)).toEqual([
        highlightId,
      ]);
      expect(fake.collections.get('fieldbook_tag')!.docs.get(tagId)?.highlightCount).toBe(1);
    });
  });

  it('reflects project access as it changes, and a renamed or trashed project in its items', async () => {
    const secret = (await createProject(f.admin, 'Board minutes')).id;
    const noteId = await createNote('Quokka pricing', 'Confidential.', secret);
    await eventually(async () => expect(noteDocs().get(noteId)?.projectTitle).toBe('Board minutes'));
    const contributorSees = async () =>
      ids((await searchOk(f.contributor.gql, { query: 'quokka', resultTypes: ['NOTE'] })).hits);
    expect(await contributorSees()).toEqual([noteId]);

    const setAccess = async (m: unknown) =>
      ok(
        await f.admin(`mutation($id: ID!, $m: JSON!) { updateProjectAccess(projectId: $id, permissions: $m) { id } }`, {
          id: secret,
          m,
        }),
      );
    await setAccess({ groups: { markup: 'none' }, users: {} });
    expect(await contributorSees()).toEqual([]);
    expect(ids((await searchOk(f.admin, { query: 'quokka', resultTypes: ['NOTE'] })).hits)).toEqual([noteId]);
    await setAccess({ groups: { markup: 'none' }, users: { [f.contributor.user.id]: 'read' } });
    expect(await contributorSees()).toEqual([noteId]);

    ok(
      await f.admin(
        `mutation($id: ID!, $input: UpdateProjectInput!) { updateProject(id: $id, input: $input) { id } }`,
        { id: secret, input: { title: 'Board papers' } },
      ),
    );
    await eventually(async () => {
      expect(noteDocs().get(noteId)?.projectTitle).toBe('Board papers');
      expect((await searchOk(f.admin, { query: 'quokka', resultTypes: ['NOTE'] })).hits[0]?.projectTitle).toBe(
        'Board papers',
      );
    });

    ok(await f.admin(`mutation($id: ID!) { deleteProject(id: $id) }`, { id: secret }));
    await eventually(async () => {
      expect(noteDocs().has(noteId)).toBe(false);
      expect((await searchOk(f.admin, { query: 'quokka' })).totalCount).toBe(0);
    });
    ok(await f.admin(`mutation($id: ID!) { restore(type: PROJECT, id: $id) }`, { id: secret }));
    await eventually(async () =>
      expect(ids((await searchOk(f.admin, { query: 'quokka', resultTypes: ['NOTE'] })).hits)).toEqual([noteId]),
    );
  });

  it('fills the outbox once per item for a bulk insert, and two drains share it without losing a row', async () => {
    const ws = f.ws.id;
    const rows = Array.from({ length: 60 }, (_, i) => ({
      workspace_id: ws,
      project_id: projectId,
      title: `Bulk import ${i} walrus`,
      content_text: 'imported',
    }));
    // Read inside the inserting transaction, before any drain can see (and take) the rows.
    const inserted = await owner().transaction(async (trx) => {
      const notes = (await trx('notes').insert(rows).returning('id')) as Array<{ id: string }>;
      const outbox = (await trx.raw(
        `select object_type, object_id::text as id from search_changes where workspace_id = ? and object_type = 'NOTE'`,
        [ws],
      )) as {
        rows: Array<{ id: string }>;
      };
      expect(outbox.rows.filter((r) => notes.some((n) => n.id === r.id))).toHaveLength(60);
      return notes.map((n) => n.id);
    });
    const engine = new TypesenseEngine({
      client: typesenseClient({ url: fake.url, apiKey: fake.apiKey }),
      db: server.fieldbook.db.app,
    });
    await Promise.all([
      drainWorkspace(engine, server.fieldbook.db.app, ws),
      drainWorkspace(engine, server.fieldbook.db.app, ws),
    ]);
    await eventually(async () => {
      expect(await pending()).toBe(0);
      expect(inserted.every((id) => noteDocs().has(id))).toBe(true);
    });
    expect((await searchOk(f.admin, { query: 'walrus', resultTypes: ['NOTE'], limit: 100 })).totalCount).toBe(60);
  });

  it('sweeps what no wake-up announced: the periodic job finds every workspace with changes and drains it', async () => {
    const app = server.fieldbook.db.app;
    const engine = new TypesenseEngine({ client: typesenseClient({ url: fake.url, apiKey: fake.apiKey }), db: app });
    const sweep = typesenseJobs(engine, app, { info: () => {} }).find((j) => j.queue === CHANGES_QUEUE)!;
    expect(sweep.schedule?.cron).toBe('* * * * *');
    // The server's own worker drains the outbox too (a drain an earlier change woke, or its own
    // sweep each minute), and rows it holds are skipped by any other drain: it stops here, once
    // its current drain is done, so what this test sees is the sweep's doing alone.
    await server.fieldbook.jobs.boss.offWork(CHANGES_QUEUE, { wait: true });
    try {
      // A change written around the triggers (no notification): only the sweep will see it.
      const stray = { workspace_id: f.ws.id, object_type: 'NOTE', object_id: '00000000-0000-4000-8000-000000000001' };
      noteDocs().set(stray.object_id, {
        ...[...noteDocs().values()][0]!,
        id: stray.object_id,
        itemId: stray.object_id,
      });
      await owner()('search_changes').insert(stray);
      expect(await workspacesWithChanges(app)).toContain(f.ws.id);
      // Outside the sweep the outbox stays behind row-level security like any workspace table.
      const elsewhere = await withTenant(app, { workspaceId: f.manager.user.id }, (trx) =>
        trx('search_changes').count<Array<{ count: number }>>({ count: '*' }),
      );
      expect(Number(elsewhere[0]!.count)).toBe(0);

      await sweep.handler({ id: 'sweep', queue: CHANGES_QUEUE, retryCount: 0, data: {} });
      expect(await pending()).toBe(0);
      // The item does not exist, so its document is removed.
      expect(noteDocs().has(stray.object_id)).toBe(false);
    } finally {
      await server.fieldbook.jobs.work([sweep]);
    }
  });
});

const REINDEX = 'mutation { reindexSearch { engine state processed total } }';
const PROGRESS = 'query { searchReindex { engine state processed total startedAt finishedAt error } }';
type Progress = { engine: string; state: string; processed: number; total: number };

describe('reindex on demand', () => {
  it('queues a reindex for workspace admins and reports it through to done, counting every item', async () => {
    const queued = ok(await f.admin<{ reindexSearch: Progress }>(REINDEX)).reindexSearch;
    expect(queued.engine).toBe('typesense');
    expect(['QUEUED', 'RUNNING', 'DONE']).toContain(queued.state);
    let last: Progress | null = null;
    await eventually(async () => {
      last = ok(await f.admin<{ searchReindex: Progress }>(PROGRESS)).searchReindex;
      expect(last.state).toBe('DONE');
    });
    const live = (await owner().raw(
      `select (select count(*) from projects where workspace_id = :ws and deleted_at is null)
            + (select count(*) from notes n join projects p on p.id = n.project_id where n.workspace_id = :ws and n.deleted_at is null and p.deleted_at is null)
            + (select count(*) from highlights h join projects p on p.id = h.project_id where h.workspace_id = :ws and h.deleted_at is null and p.deleted_at is null)
            + (select count(*) from tags where workspace_id = :ws) as n`,
      { ws: f.ws.id },
    )) as { rows: Array<{ n: number }> };
    expect(last!.total).toBe(Number(live.rows[0]!.n));
    expect(last!.processed).toBe(last!.total);
    expect(last!.total).toBeGreaterThan(60);
  });

  it('answers a reindex under way instead of queueing another', async () => {
    await owner()('search_reindexes')
      .where({ workspace_id: f.ws.id })
      .update({ state: 'RUNNING', processed: 5, total: 10 });
    const again = ok(await f.admin<{ reindexSearch: Progress }>(REINDEX)).reindexSearch;
    expect(again).toMatchObject({ state: 'RUNNING', processed: 5, total: 10 });
  });

  it('is for workspace admins only', async () => {
    for (const gql of [f.manager.gql, f.contributor.gql]) {
      expect(failure(await gql(REINDEX)).extensions?.errorCode).toBe('FORBIDDEN');
      expect(failure(await gql(PROGRESS)).extensions?.errorCode).toBe('FORBIDDEN');
    }
  });
});
