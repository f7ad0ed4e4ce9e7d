import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiConfig, startFakeOpenAI, type FakeOpenAI } from '../../support/openai-fake.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { RUN_TOOL, startAgentsServer, type ToolAnswer } from '../agents/support.ts';
import { buildCorpus, type Corpus } from '../ai/corpus.ts';
import { ok } from './content-support.ts';

let fake: FakeOpenAI;
let server: TestServer;
let mail: TestMailServer;
let c: Corpus;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  ({ server, mail } = await startAgentsServer(aiConfig(fake, { maxRetries: 0 })));
  c = await buildCorpus(server, mail);
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
  await fake?.close();
});

interface Maker {
  kind: string;
  label: string | null;
  model: string | null;
}
const MAKER = 'createdBy { kind label model }';
const noteMaker = async (id: string) =>
  ok(await c.f.viewer.gql<{ note: { createdBy: Maker } }>(`query($id: ID!) { note(id: $id) { ${MAKER} } }`, { id }))
    .note.createdBy;

describe('who made a note, an insight or a highlight', () => {
  it('says a person made what a person wrote', async () => {
    expect(await noteMaker(c.notes.maria)).toEqual({ kind: 'PERSON', label: null, model: null });
    const { insight } = ok(
      await c.f.viewer.gql<{ insight: { createdBy: Maker } }>(`query($id: ID!) { insight(id: $id) { ${MAKER} } }`, {
        id: c.insight,
      }),
    );
    expect(insight.createdBy.kind).toBe('PERSON');
  });

  it('says an agent wrote a note an agent made, in the note and in the project’s list', async () => {
    const made = ok(
      await c.f.contributor.gql<ToolAnswer>(RUN_TOOL, {
        name: 'create_document',
        input: { projectId: c.study, title: 'Agent notes', text: 'What the agent found.' },
      }),
    ).runAgentTool;
    const id = made.items[0]!.id;
    expect(await noteMaker(id)).toMatchObject({ kind: 'AGENT', label: 'Written by AI' });
    const { notes } = ok(
      await c.f.viewer.gql<{ notes: { nodes: Array<{ id: string; createdBy: Maker }> } }>(
        `query($p: ID!) { notes(projectId: $p) { nodes { id ${MAKER} } } }`,
        { p: c.study },
      ),
    );
    expect(Object.fromEntries(notes.nodes.map((n) => [n.id, n.createdBy.kind]))).toMatchObject({
      [id]: 'AGENT',
      [c.notes.maria]: 'PERSON',
      [c.notes.tom]: 'PERSON',
    });
  });

  it('says AI wrote a translated note, with the model that wrote it', async () => {
    fake.onChat = () => ({ content: 'Interview mit Maria\nMaria leitet eine Designagentur.' });
    const { translateNote } = ok(
      await c.f.contributor.gql<{ translateNote: { translatedNoteId: string } }>(
        `mutation($input: TranslateNoteInput!) { translateNote(input: $input) { translatedNoteId } }`,
        { input: { noteId: c.notes.maria, targetLanguage: 'DE', sourceLanguage: 'en' } },
      ),
    );
    expect(await noteMaker(translateNote.translatedNoteId)).toEqual({
      kind: 'AI',
      label: 'Written by AI',
      model: 'fake-chat',
    });
  });

  it('says AI chose a highlight made from an accepted suggestion', async () => {
    fake.onChat = () => ({
      content: JSON.stringify({
        type: 'highlight',
        text: 'He asked for a Slack integration so his team sees new insights without logging in.',
        reason: 'Integrations',
      }),
    });
    const { suggestHighlights } = ok(
      await c.f.contributor.gql<{ suggestHighlights: { suggestions: Array<{ id: string }> } }>(
        `mutation($n: ID!) { suggestHighlights(noteId: $n) { suggestions { id } } }`,
        { n: c.notes.tom },
      ),
    );
    const { acceptHighlightSuggestion } = ok(
      await c.f.contributor.gql<{ acceptHighlightSuggestion: { highlightId: string } }>(
        `mutation($id: ID!) { acceptHighlightSuggestion(id: $id) { highlightId } }`,
        { id: suggestHighlights.suggestions[0]!.id },
      ),
    );
    const { note } = ok(
      await c.f.viewer.gql<{ note: { highlights: Array<{ id: string; createdBy: Maker }> } }>(
        `query($id: ID!) { note(id: $id) { highlights { id ${MAKER} } } }`,
        { id: c.notes.tom },
      ),
    );
    const kinds = Object.fromEntries(note.highlights.map((h) => [h.id, h.createdBy.kind]));
    expect(kinds).toEqual({ [c.highlights.importsFailed]: 'PERSON', [acceptHighlightSuggestion.highlightId]: 'AI' });
  });
});
