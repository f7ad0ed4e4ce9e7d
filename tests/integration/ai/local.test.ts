import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeForQuote } from '../../../core/src/ai/quotes.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { failure, ok } from '../research/content-support.ts';
import {
  ANSWER_FIELDS,
  buildCorpus,
  startAiServer,
  SUMMARY_FIELDS,
  TEXTS,
  type Answer,
  type Corpus,
} from './corpus.ts';

let server: TestServer;
let mail: TestMailServer;
let c: Corpus;

// No endpoint configured at all: what can work locally does.
beforeAll(async () => {
  ({ server, mail } = await startAiServer());
  c = await buildCorpus(server, mail);
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
});

describe('with no AI model configured', () => {
  it('says so in the settings', async () => {
    const s = ok(
      await c.f.admin<{ aiSettings: { model: { configured: boolean } } }>(
        `{ aiSettings { model { configured chatModel } } }`,
      ),
    ).aiSettings;
    expect(s.model.configured).toBe(false);
    expect(
      ok(await c.f.admin<{ rebuildAiEmbeddings: boolean }>(`mutation { rebuildAiEmbeddings }`)).rebuildAiEmbeddings,
    ).toBe(false);
  });

  it('summarises by quoting the note’s key sentences, labelled as local', async () => {
    const s = ok(
      await c.f.contributor.gql<{
        summarize: {
          status: string;
          quotes: Array<{ itemId: string; text: string }>;
          sections: unknown[];
          provenance: { local: boolean; label: string; model: string; endpointHost: string | null };
        };
      }>(`mutation($id: ID!) { summarize(input: { objectType: NOTE, objectId: $id }) { ${SUMMARY_FIELDS} } }`, {
        id: c.notes.maria,
      }),
    ).summarize;
    expect(s.status).toBe('OK');
    expect(s.quotes.length).toBeGreaterThan(1);
    for (const q of s.quotes) {
      expect(q.itemId).toBe(c.notes.maria);
      expect(TEXTS.interview1).toContain(q.text);
    }
    expect(s.provenance).toMatchObject({
      local: true,
      model: 'local',
      endpointHost: null,
      label: 'Local summary (no AI model configured) from 1 note, 1 highlight',
    });

    const chapters = ok(
      await c.f.contributor.gql<{ summarize: { sections: Array<{ title: string; text: string }> } }>(
        `mutation($id: ID!) { summarize(input: { objectType: NOTE, objectId: $id, kind: chapter }) { sections { title text } } }`,
        { id: c.notes.tom },
      ),
    ).summarize;
    expect(chapters.sections.length).toBeGreaterThan(1);
    for (const sec of chapters.sections) expect(TEXTS.interview2).toContain(sec.text);
    expect(
      failure(
        await c.f.viewer.gql(`mutation($id: ID!) { summarize(input: { objectType: NOTE, objectId: $id }) { id } }`, {
          id: c.notes.maria,
        }),
      ).message,
    ).toBe('Viewers cannot generate summaries');
  });

  it('answers Ask with sentences quoted from what the person may read', async () => {
    const a = ok(
      await c.f.viewer.gql<{ ask: Answer }>(
        `query($q: String!) { ask(input: { question: $q }) { ${ANSWER_FIELDS} } }`,
        { q: 'What changes about pricing after onboarding?' },
      ),
    ).ask;
    expect(a.local).toBe(true);
    expect(a.label).toMatch(/^Local answer \(no AI model configured\) from \d+ sources?$/);
    const cites = a.blocks.flatMap((b) => b.citations ?? []);
    expect(cites.length).toBeGreaterThan(0);
    // What people wrote, never a title.
    const readable = normalizeForQuote([...TEXTS.interview1, ...TEXTS.interview2, ...TEXTS.insight].join(' '));
    for (const q of cites) {
      expect(readable).toContain(normalizeForQuote(q.quote));
      expect(q.quote).not.toBe(q.title);
      expect(q.projectTitle).toBe('Onboarding study');
    }
    expect(a.droppedQuotes).toBe(0);
  });

  it('suggests the note’s key sentences as highlights, each found in the note and labelled as such', async () => {
    const made = ok(
      await c.f.contributor.gql<{
        suggestHighlights: {
          local: boolean;
          dropped: number;
          suggestions: Array<{ text: string; startOffset: number; endOffset: number; label: string }>;
        };
      }>(
        `mutation($n: ID!) { suggestHighlights(noteId: $n) { local dropped suggestions { text startOffset endOffset label } } }`,
        { n: c.notes.tom },
      ),
    ).suggestHighlights;
    expect(made).toMatchObject({ local: true, dropped: 0 });
    expect(made.suggestions.length).toBeGreaterThan(0);
    // The sentence already highlighted (importing old interviews failed twice) is not offered again.
    expect(made.suggestions.map((s) => s.text)).not.toContain(TEXTS.interview2[1]);
    const { note } = ok(
      await c.f.admin<{ note: { contentText: string } }>(`query($id: ID!) { note(id: $id) { contentText } }`, {
        id: c.notes.tom,
      }),
    );
    for (const s of made.suggestions) {
      expect(note.contentText.slice(s.startOffset, s.endOffset)).toBe(s.text);
      expect(s.label).toBe('Key sentence (no AI model configured)');
    }
  });
});
