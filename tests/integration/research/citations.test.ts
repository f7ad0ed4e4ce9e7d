import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { deleteForGood } from '../../../modules/research/src/retention/purge.ts';
import {
  contentFixture,
  createProject,
  doc,
  failure,
  ok,
  startResearchServer,
  type ContentFixture,
} from './content-support.ts';

const CITE =
  'mutation($insightId: ID!, $highlightId: ID!) { citeHighlight(insightId: $insightId, highlightId: $highlightId) { id insightId } }';
const UNCITE =
  'mutation($insightId: ID!, $highlightId: ID!) { unciteHighlight(insightId: $insightId, highlightId: $highlightId) { id insightId } }';
const CITED = 'query($id: ID!) { insight(id: $id) { highlights { id text note { title } } } }';
const CREATE_INSIGHT = 'mutation($input: CreateInsightInput!) { createInsight(input: $input) { id } }';

describe('citations of highlights by insights', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let f: ContentFixture;
  let projectId: string;
  let highlightId: string;
  let insightId: string;
  let otherInsightId: string;

  beforeAll(async () => {
    ({ server, mail } = await startResearchServer());
    f = await contentFixture(server, mail);
    projectId = (await createProject(f.admin, 'Onboarding')).id;
    const note = ok(
      await f.admin<{ createNote: { id: string } }>(
        'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
        {
          input: { projectId, title: 'Call with Ada', content: doc('Setup took an hour') },
        },
      ),
    ).createNote;
    highlightId = ok(
      await f.admin<{ createHighlight: { id: string } }>(
        'mutation($input: CreateHighlightInput!) { createHighlight(input: $input) { id } }',
        {
          input: { noteId: note.id, startOffset: 0, endOffset: 18 },
        },
      ),
    ).createHighlight.id;
    insightId = ok(
      await f.admin<{ createInsight: { id: string } }>(CREATE_INSIGHT, {
        input: { projectId, title: 'Setup is slow' },
      }),
    ).createInsight.id;
    otherInsightId = ok(
      await f.admin<{ createInsight: { id: string } }>(CREATE_INSIGHT, { input: { projectId, title: 'Other' } }),
    ).createInsight.id;
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  it('cites a highlight, lists it on the insight, moves it when cited elsewhere, and takes it off', async () => {
    expect(
      ok(await f.contributor.gql<{ citeHighlight: { insightId: string } }>(CITE, { insightId, highlightId }))
        .citeHighlight.insightId,
    ).toBe(insightId);
    const cited = ok(
      await f.viewer.gql<{ insight: { highlights: Array<{ id: string; text: string; note: { title: string } }> } }>(
        CITED,
        { id: insightId },
      ),
    ).insight.highlights;
    expect(cited).toEqual([{ id: highlightId, text: 'Setup took an hour', note: { title: 'Call with Ada' } }]);

    ok(await f.contributor.gql(CITE, { insightId: otherInsightId, highlightId }));
    expect(
      ok(await f.viewer.gql<{ insight: { highlights: unknown[] } }>(CITED, { id: insightId })).insight.highlights,
    ).toEqual([]);
    // Taking it off an insight that does not cite it leaves the other citation alone.
    expect(
      ok(await f.contributor.gql<{ unciteHighlight: { insightId: string } }>(UNCITE, { insightId, highlightId }))
        .unciteHighlight.insightId,
    ).toBe(otherInsightId);
    expect(
      ok(
        await f.contributor.gql<{ unciteHighlight: { insightId: string | null } }>(UNCITE, {
          insightId: otherInsightId,
          highlightId,
        }),
      ).unciteHighlight.insightId,
    ).toBeNull();
  });

  it('refuses viewers, locked insights for contributors, and unknown ids, changing nothing', async () => {
    expect(failure(await f.viewer.gql(CITE, { insightId, highlightId })).extensions?.errorCode).toBe('FORBIDDEN');
    expect(
      failure(await f.contributor.gql(CITE, { insightId, highlightId: '00000000-0000-4000-8000-000000000000' }))
        .extensions?.errorCode,
    ).toBe('NOT_FOUND');
    ok(
      await f.admin('mutation($id: ID!) { updateInsight(id: $id, input: { locked: true }) { id } }', { id: insightId }),
    );
    expect(failure(await f.contributor.gql(CITE, { insightId, highlightId })).message).toBe(
      'This insight is locked; only managers and admins can edit it.',
    );
    ok(await f.manager.gql(CITE, { insightId, highlightId }));
    expect(
      ok(
        await f.admin<{ insight: { highlights: Array<{ id: string }> } }>(CITED, { id: insightId }),
      ).insight.highlights.map((h) => h.id),
    ).toEqual([highlightId]);
  });

  it('keeps a cited highlight when the insight citing it is deleted for good', async () => {
    const doomed = ok(
      await f.admin<{ createInsight: { id: string } }>(CREATE_INSIGHT, { input: { projectId, title: 'Soon gone' } }),
    ).createInsight.id;
    ok(await f.admin(CITE, { insightId: doomed, highlightId }));
    const db = server.fieldbook.db.owner;
    await db.transaction((trx) => deleteForGood(trx, f.ws.id, { insights: [doomed] }));
    expect(await db('insights').where({ id: doomed }).first()).toBeUndefined();
    expect(await db('highlights').where({ id: highlightId }).first('id', 'insight_id')).toEqual({
      id: highlightId,
      insight_id: null,
    });
  });
});
