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

const RECENT_NOTES =
  'query($first: Int, $mine: Boolean) { recentNotes(first: $first, createdByMe: $mine) { id title project { id } } }';
const RECENT_INSIGHTS =
  'query($published: Boolean, $mine: Boolean) { recentInsights(published: $published, createdByMe: $mine) { id title published } }';
const TAG_HIGHLIGHTS = 'query($t: ID!) { tagHighlights(tagId: $t) { id text note { id title } } }';

describe('recent work and tag highlights', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let f: ContentFixture;
  beforeAll(async () => {
    ({ server, mail } = await startResearchServer());
    f = await contentFixture(server, mail);
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  const note = async (gql: ContentFixture['manager']['gql'], projectId: string, title: string) =>
    ok(
      await gql<{ createNote: { id: string } }>(
        'mutation($p: ID!, $t: String) { createNote(input: { projectId: $p, title: $t }) { id } }',
        { p: projectId, t: title },
      ),
    ).createNote.id;

  it('lists the latest notes across readable projects, newest change first, and the caller’s own on request', async () => {
    const open = await createProject(f.contributor.gql, 'Open study');
    const hidden = await createProject(f.manager.gql, 'Hidden study');
    ok(
      await f.manager.gql(
        'mutation($p: ID!) { updateProjectAccess(projectId: $p, permissions: { groups: { markup: "none" }, users: {} }) { id } }',
        { p: hidden.id },
      ),
    );
    const first = await note(f.contributor.gql, open.id, 'First');
    const byManager = await note(f.manager.gql, open.id, 'By manager');
    const secret = await note(f.manager.gql, hidden.id, 'Secret');
    ok(
      await f.contributor.gql('mutation($id: ID!) { updateNote(id: $id, input: { title: "First, edited" }) { id } }', {
        id: first,
      }),
    );

    const seen = ok(
      await f.contributor.gql<{ recentNotes: Array<{ id: string; title: string }> }>(RECENT_NOTES),
    ).recentNotes;
    expect(seen.map((n) => n.id)).toEqual([first, byManager]);
    expect(seen[0]!.title).toBe('First, edited');
    expect(
      ok(await f.manager.gql<{ recentNotes: Array<{ id: string }> }>(RECENT_NOTES)).recentNotes.map((n) => n.id),
    ).toContain(secret);

    const mine = ok(
      await f.contributor.gql<{ recentNotes: Array<{ id: string }> }>(RECENT_NOTES, { mine: true }),
    ).recentNotes;
    expect(mine.map((n) => n.id)).toEqual([first]);
    expect(
      ok(await f.contributor.gql<{ recentNotes: unknown[] }>(RECENT_NOTES, { first: 1 })).recentNotes,
    ).toHaveLength(1);

    const bad = failure(await f.contributor.gql(RECENT_NOTES, { first: 201 }));
    expect(bad.extensions?.errorCode).toBe('BAD_USER_INPUT');
    expect(bad.message).toContain('200');
  });

  it('filters recent insights by published state', async () => {
    const p = await createProject(f.contributor.gql, 'Insight study');
    const a = ok(
      await f.contributor.gql<{ createInsight: { id: string } }>(
        'mutation($p: ID!) { createInsight(input: { projectId: $p, title: "Draft" }) { id } }',
        { p: p.id },
      ),
    ).createInsight.id;
    const b = ok(
      await f.contributor.gql<{ createInsight: { id: string } }>(
        'mutation($p: ID!) { createInsight(input: { projectId: $p, title: "Out" }) { id } }',
        { p: p.id },
      ),
    ).createInsight.id;
    ok(await f.contributor.gql('mutation($id: ID!) { publishInsight(id: $id) { id } }', { id: b }));
    const published = ok(
      await f.viewer.gql<{ recentInsights: Array<{ id: string }> }>(RECENT_INSIGHTS, { published: true }),
    ).recentInsights.map((i) => i.id);
    expect(published).toContain(b);
    expect(published).not.toContain(a);
    const drafts = ok(
      await f.contributor.gql<{ recentInsights: Array<{ id: string }> }>(RECENT_INSIGHTS, {
        published: false,
        mine: true,
      }),
    ).recentInsights.map((i) => i.id);
    expect(drafts).toContain(a);
    expect(drafts).not.toContain(b);
  });

  it('lists published insights by when they were published, newest first, whatever was edited since', async () => {
    const p = await createProject(f.contributor.gql, 'Publishing order');
    const make = async (title: string) =>
      ok(
        await f.contributor.gql<{ createInsight: { id: string } }>(
          'mutation($p: ID!, $t: String) { createInsight(input: { projectId: $p, title: $t }) { id } }',
          { p: p.id, t: title },
        ),
      ).createInsight.id;
    const older = await make('Published first');
    const newer = await make('Published second');
    ok(await f.contributor.gql('mutation($id: ID!) { publishInsight(id: $id) { id } }', { id: older }));
    ok(await f.contributor.gql('mutation($id: ID!) { publishInsight(id: $id) { id } }', { id: newer }));
    // Editing the older one makes it the most recently updated, not the most recently published.
    ok(
      await f.contributor.gql(
        'mutation($id: ID!) { updateInsight(id: $id, input: { title: "Published first, edited" }) { id } }',
        { id: older },
      ),
    );
    const published = ok(
      await f.viewer.gql<{ recentInsights: Array<{ id: string }> }>(RECENT_INSIGHTS, { published: true }),
    ).recentInsights.map((i) => i.id);
    expect(published.indexOf(newer)).toBeGreaterThanOrEqual(0);
    expect(published.indexOf(newer)).toBeLessThan(published.indexOf(older));
    const updated = ok(
      await f.viewer.gql<{ recentInsights: Array<{ id: string }> }>(RECENT_INSIGHTS),
    ).recentInsights.map((i) => i.id);
    expect(updated.indexOf(older)).toBeLessThan(updated.indexOf(newer));
  });

  it('gives lists a one-line preview of a note’s text, cut at 240 characters', async () => {
    const p = await createProject(f.contributor.gql, 'Previews');
    const long = 'word '.repeat(100).trim();
    const content = {
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'First   line' }] },
        { type: 'paragraph', content: [{ type: 'text', text: long }] },
      ],
    };
    const id = ok(
      await f.contributor.gql<{ createNote: { id: string } }>(
        'mutation($p: ID!, $c: JSON) { createNote(input: { projectId: $p, content: $c }) { id } }',
        { p: p.id, c: content },
      ),
    ).createNote.id;
    const { note } = ok(
      await f.viewer.gql<{ note: { preview: string } }>('query($id: ID!) { note(id: $id) { preview } }', { id }),
    );
    expect(note.preview.startsWith('First line word word')).toBe(true);
    expect(note.preview).toHaveLength(240);
    expect(note.preview.endsWith('…')).toBe(true);
  });

  it('lists the highlights carrying a tag with their notes, and hides a tag of an unreadable project', async () => {
    const p = await createProject(f.contributor.gql, 'Tagged study');
    const noteId = ok(
      await f.contributor.gql<{ createNote: { id: string } }>(
        'mutation($p: ID!, $c: JSON) { createNote(input: { projectId: $p, title: "Call", content: $c }) { id } }',
        {
          p: p.id,
          c: {
            type: 'doc',
            content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Pricing is confusing' }] }],
          },
        },
      ),
    ).createNote.id;
    const h = ok(
      await f.contributor.gql<{ createHighlight: { id: string } }>(
        'mutation($n: ID!) { createHighlight(input: { noteId: $n, startOffset: 0, endOffset: 7 }) { id } }',
        { n: noteId },
      ),
    ).createHighlight.id;
    const board = ok(
      await f.contributor.gql<{ createTagBoard: { id: string } }>(
        'mutation($p: ID!) { createTagBoard(input: { projectId: $p, title: "Board" }) { id } }',
        { p: p.id },
      ),
    ).createTagBoard.id;
    const tag = ok(
      await f.contributor.gql<{ createTag: { id: string } }>(
        'mutation($b: ID!) { createTag(input: { boardId: $b, title: "Pricing" }) { id } }',
        { b: board },
      ),
    ).createTag.id;
    ok(
      await f.contributor.gql('mutation($h: ID!, $t: [ID!]!) { tagHighlight(highlightId: $h, tagIds: $t) { id } }', {
        h,
        t: [tag],
      }),
    );

    const list = ok(
      await f.viewer.gql<{ tagHighlights: Array<{ id: string; text: string; note: { id: string } }> }>(TAG_HIGHLIGHTS, {
        t: tag,
      }),
    ).tagHighlights;
    expect(list).toEqual([{ id: h, text: 'Pricing', note: { id: noteId, title: 'Call' } }]);

    ok(
      await f.manager.gql(
        'mutation($p: ID!) { updateProjectAccess(projectId: $p, permissions: { groups: { markup: "none" }, users: {} }) { id } }',
        { p: p.id },
      ),
    );
    expect(failure(await f.viewer.gql(TAG_HIGHLIGHTS, { t: tag })).extensions?.errorCode).toBe('NOT_FOUND');
  });
});
