import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiConfig, startFakeOpenAI, type FakeOpenAI } from '../../support/openai-fake.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { failure, ok } from '../research/content-support.ts';
import { buildCorpus, startAiServer, type Corpus } from './corpus.ts';

let fake: FakeOpenAI;
let server: TestServer;
let mail: TestMailServer;
let c: Corpus;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  ({ server, mail } = await startAiServer(aiConfig(fake, { maxRetries: 0 })));
  c = await buildCorpus(server, mail);
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
  await fake?.close();
});

const TRANSLATE = `mutation($input: TranslateNoteInput!) { translateNote(input: $input) { noteId richTextId targetLanguage sourceLanguage status error translatedNoteId } }`;
interface Translation {
  noteId: string;
  status: string;
  error: string | null;
  translatedNoteId: string | null;
}

describe('translation of a note', () => {
  it('writes the translation as a new note, recorded in the audit log with both notes and languages', async () => {
    fake.onChat = () => ({
      content: 'Interview mit Maria\nMaria leitet eine Designagentur.\nDas Onboarding dauerte viel zu lange.',
    });
    const t = ok(
      await c.f.contributor.gql<{ translateNote: Translation }>(TRANSLATE, {
        input: { noteId: c.notes.maria, targetLanguage: 'DE', sourceLanguage: 'en' },
      }),
    ).translateNote;
    expect(t).toMatchObject({ noteId: c.notes.maria, status: 'Success', error: null });
    const copy = ok(
      await c.f.viewer.gql<{ note: { title: string; contentText: string } }>(
        `query($id: ID!) { note(id: $id) { title contentText } }`,
        { id: t.translatedNoteId },
      ),
    ).note;
    expect(copy.title).toBe('Interview mit Maria (de)');
    expect(copy.contentText).toContain('Das Onboarding dauerte viel zu lange.');
    const audit = (await server.fieldbook.db
      .owner('audit_log')
      .where({ workspace_id: c.f.ws.id, kind: 'TRANSLATION' })
      .select('subject_id', 'metadata')) as Array<{ subject_id: string; metadata: Record<string, unknown> }>;
    expect(audit).toEqual([
      {
        subject_id: c.notes.maria,
        metadata: {
          sourceObjectId: c.notes.maria,
          targetObjectId: t.translatedNoteId,
          sourceLanguage: 'en',
          targetLanguage: 'de',
        },
      },
    ]);
  });

  it('answers UnsupportedLanguagePair for a language it does not offer or a pair of one language', async () => {
    const before = fake.requests.length;
    for (const input of [{ targetLanguage: 'xx' }, { targetLanguage: 'en', sourceLanguage: 'en' }]) {
      const t = ok(
        await c.f.contributor.gql<{ translateNote: Translation }>(TRANSLATE, {
          input: { noteId: c.notes.maria, ...input },
        }),
      ).translateNote;
      expect(t).toMatchObject({ status: 'Failure', error: 'UnsupportedLanguagePair', translatedNoteId: null });
    }
    expect(fake.requests.length).toBe(before);
  });

  it('answers Error when the model fails, and refuses viewers, notes out of reach and bad codes', async () => {
    fake.script({ status: 500 });
    const t = ok(
      await c.f.contributor.gql<{ translateNote: Translation }>(TRANSLATE, {
        input: { noteId: c.notes.tom, targetLanguage: 'fr' },
      }),
    ).translateNote;
    expect(t).toMatchObject({ status: 'Failure', error: 'Error' });
    expect(
      failure(await c.f.viewer.gql(TRANSLATE, { input: { noteId: c.notes.tom, targetLanguage: 'fr' } })).extensions
        ?.errorCode,
    ).toBe('FORBIDDEN');
    expect(
      failure(await c.f.contributor.gql(TRANSLATE, { input: { noteId: c.notes.secret, targetLanguage: 'fr' } }))
        .extensions?.errorCode,
    ).toBe('NOT_FOUND');
    expect(
      failure(await c.f.contributor.gql(TRANSLATE, { input: { noteId: c.notes.tom, targetLanguage: 'french' } }))
        .extensions,
    ).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'targetLanguage' });
  });
});
