import { describe, expect, it } from 'vitest';
import { normalizeForQuote } from '../../../core/src/ai/quotes.ts';
import { summarySources, type FakeOpenAI } from '../../support/openai-fake.ts';
import { doc, failure, ok } from '../research/content-support.ts';
import { readEvents, SUMMARY_FIELDS, TEXTS, useAiCorpus } from './corpus.ts';

const c = useAiCorpus();

const SUMMARIZE = `mutation($input: SummarizeInput!) { summarize(input: $input) { ${SUMMARY_FIELDS} } }`;
interface Summary {
  id: string | null;
  status: string;
  message: string | null;
  text: string;
  kind: string;
  framework: string;
  droppedQuotes: number;
  sections: Array<{ title: string; startTime: string | null; text: string }>;
  quotes: Array<{ itemId: string; text: string }>;
  provenance: {
    model: string;
    endpointHost: string | null;
    promptVersion: string;
    inputIds: string[];
    promptTokens: number;
    completionTokens: number;
    local: boolean;
    label: string;
  } | null;
}

/** A model answer quoting the note truthfully once, with altered words once, inventing once, and citing an unknown id. */
function answerWithBadQuotes(body: Parameters<FakeOpenAI['onChat']>[0]) {
  const [noteSource, highlight] = summarySources(body);
  return {
    content: [
      '```json',
      JSON.stringify({ type: 'text', text: 'Maria found onboarding slow and pricing confusing.' }),
      // True, with typographic quotes and different case and spacing: kept.
      JSON.stringify({ type: 'quote', itemId: noteSource!.id, text: '“The  onboarding flow took far too LONG”' }),
      // One word changed: dropped.
      JSON.stringify({ type: 'quote', itemId: noteSource!.id, text: 'the onboarding flow took much too long' }),
      // Invented: dropped.
      JSON.stringify({ type: 'quote', itemId: noteSource!.id, text: 'I would pay double for this product' }),
      // True words, but cited to a source that does not hold them: dropped.
      JSON.stringify({ type: 'quote', itemId: highlight!.id, text: 'The pricing page was confusing' }),
      // An id the model was never given: dropped.
      JSON.stringify({
        type: 'quote',
        itemId: '00000000-0000-4000-8000-000000000000',
        text: 'She said the onboarding flow took far too long',
      }),
      '```',
    ].join('\n'),
    usage: { prompt: 120, completion: 40 },
  };
}

describe('summaries', () => {
  it('lists the 15 frameworks, the default list first', async () => {
    const res = ok(
      await c.f.viewer.gql<{ summaryFrameworks: Array<{ framework: string; isDefault: boolean }> }>(
        `{ summaryFrameworks { framework isDefault } }`,
      ),
    );
    expect(res.summaryFrameworks).toHaveLength(15);
    expect(res.summaryFrameworks.slice(0, 6).map((f) => f.framework)).toEqual([
      'Chronological',
      'Summary',
      'ByThemes',
      'CustomerCall',
      'UsabilityTest',
      'SalesSPICED',
    ]);
    expect(res.summaryFrameworks.filter((f) => f.isDefault)).toHaveLength(6);
    expect(res.summaryFrameworks.map((f) => f.framework)).toContain('CustomPrompt');
  });

  it('keeps only quotes found word for word in the source they cite, and counts the others', async () => {
    c.fake.onChat = answerWithBadQuotes;
    const s = ok(
      await c.f.contributor.gql<{ summarize: Summary }>(SUMMARIZE, {
        input: { objectType: 'NOTE', objectId: c.notes.maria },
      }),
    ).summarize;
    expect(s.status).toBe('OK');
    expect(s.text).toBe('Maria found onboarding slow and pricing confusing.');
    expect(s.quotes).toEqual([{ itemId: c.notes.maria, text: '“The  onboarding flow took far too LONG”' }]);
    expect(s.droppedQuotes).toBe(4);
    const noteText = normalizeForQuote(TEXTS.interview1.join(' '));
    for (const q of s.quotes) expect(noteText).toContain(normalizeForQuote(q.text).replace(/^"|"$/g, ''));

    // Provenance: model, endpoint host, prompt version, inputs (the note and its highlight) and tokens.
    expect(s.provenance).toMatchObject({
      model: 'fake-chat',
      endpointHost: new URL(c.fake.url).host,
      promptVersion: 'summary-v1',
      promptTokens: 120,
      completionTokens: 40,
      local: false,
    });
    expect(s.provenance!.inputIds.sort()).toEqual([c.notes.maria, c.highlights.flowTooLong].sort());
    expect(s.provenance!.label).toBe('Written by AI (fake-chat) from 1 note, 1 highlight');

    // Stored: anyone who can read the note reads the same summary.
    const stored = ok(
      await c.f.viewer.gql<{ aiSummary: Summary }>(
        `query($id: ID!) { aiSummary(objectType: NOTE, objectId: $id) { ${SUMMARY_FIELDS} } }`,
        { id: c.notes.maria },
      ),
    ).aiSummary;
    expect(stored.quotes).toEqual(s.quotes);
    expect(stored.droppedQuotes).toBe(4);
  });

  it('checks the quotations written in its paragraphs and chapters, removing and counting those not in the sources', async () => {
    c.fake.onChat = () => ({
      content: [
        JSON.stringify({
          type: 'text',
          text: 'Maria said “the onboarding flow took far too long” and „I would pay double for this“.',
        }),
        JSON.stringify({ type: 'section', title: 'Pricing', text: 'She called it «cheap and clear».' }),
        JSON.stringify({ type: 'quote', itemId: c.notes.maria, text: 'The pricing page was confusing' }),
      ].join('\n'),
    });
    const s = ok(
      await c.f.contributor.gql<{ summarize: Summary }>(SUMMARIZE, {
        input: { objectType: 'NOTE', objectId: c.notes.maria, kind: 'paragraph' },
      }),
    ).summarize;
    expect(s.text).toBe(
      'Maria said “the onboarding flow took far too long” and [quote removed: not found in the sources].',
    );
    expect(s.sections).toEqual([
      { title: 'Pricing', startTime: null, text: 'She called it [quote removed: not found in the sources].' },
    ]);
    expect(s.quotes).toEqual([{ itemId: c.notes.maria, text: 'The pricing page was confusing' }]);
    expect(s.droppedQuotes).toBe(2);
  });

  it('writes chapters with title, start time and text', async () => {
    c.fake.onChat = () => ({
      content: [
        JSON.stringify({ type: 'section', title: 'Background', startTime: '00:00', text: 'Maria runs an agency.' }),
        JSON.stringify({ type: 'section', title: 'Pricing', startTime: 'soon', text: 'The plans were confusing.' }),
      ].join('\n'),
    });
    const s = ok(
      await c.f.contributor.gql<{ summarize: Summary }>(SUMMARIZE, {
        input: { objectType: 'NOTE', objectId: c.notes.maria, kind: 'chapter', framework: 'Chronological' },
      }),
    ).summarize;
    expect(s.kind).toBe('chapter');
    expect(s.sections).toEqual([
      { title: 'Background', startTime: '00:00', text: 'Maria runs an agency.' },
      { title: 'Pricing', startTime: null, text: 'The plans were confusing.' },
    ]);
  });

  it('streams verified parts as the model writes them, over server-sent events', async () => {
    c.fake.onChat = (body) => ({ ...answerWithBadQuotes(body), chunkChars: 5 });
    const res = await fetch(`${c.server.url}/api/ai/summaries/stream`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${c.f.contributor.accessToken}`,
        'x-fieldbook-workspace': c.f.ws.id,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ objectType: 'NOTE', objectId: c.notes.tom, kind: 'streaming', framework: 'Summary' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = await readEvents(res);
    const parts = events.filter((e) => e.event === 'part').map((e) => e.data as { type: string; text: string });
    // Tom's note does not hold Maria's words: only the text part survives.
    expect(parts).toEqual([{ type: 'text', text: 'Maria found onboarding slow and pricing confusing.' }]);
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    expect((done.data as Summary).droppedQuotes).toBe(5);
  });

  it('answers NOT_ENOUGH_DATA with the product’s message for a note too thin to summarise, without calling the model', async () => {
    const thin = ok(
      await c.f.admin<{ createNote: { id: string } }>(
        `mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }`,
        { input: { projectId: c.study, title: 'Stub', content: doc('Call went fine.') } },
      ),
    ).createNote.id;
    const before = c.fake.requests.length;
    const s = ok(
      await c.f.contributor.gql<{ summarize: Summary }>(SUMMARIZE, { input: { objectType: 'NOTE', objectId: thin } }),
    ).summarize;
    expect(s).toMatchObject({ status: 'NOT_ENOUGH_DATA', message: 'Not enough content to summarize', quotes: [] });
    expect(c.fake.requests.length).toBe(before);
  });

  it('refuses viewers on the server with the tooltip’s words', async () => {
    const err = failure(await c.f.viewer.gql(SUMMARIZE, { input: { objectType: 'NOTE', objectId: c.notes.maria } }));
    expect(err.extensions?.errorCode).toBe('FORBIDDEN');
    expect(err.message).toBe('Viewers cannot generate summaries');
    const res = await fetch(`${c.server.url}/api/ai/summaries/stream`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${c.f.viewer.accessToken}`,
        'x-fieldbook-workspace': c.f.ws.id,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ objectType: 'NOTE', objectId: c.notes.maria }),
    });
    expect(res.status).toBe(403);
  });

  it('does not summarise a note the caller cannot read, and checks its input', async () => {
    const hidden = failure(
      await c.f.contributor.gql(SUMMARIZE, { input: { objectType: 'NOTE', objectId: c.notes.secret } }),
    );
    expect(hidden.extensions?.errorCode).toBe('NOT_FOUND');
    const custom = failure(
      await c.f.contributor.gql(SUMMARIZE, {
        input: { objectType: 'NOTE', objectId: c.notes.maria, framework: 'CustomPrompt' },
      }),
    );
    expect(custom.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'customPrompt' });
    const long = failure(
      await c.f.contributor.gql(SUMMARIZE, {
        input: {
          objectType: 'NOTE',
          objectId: c.notes.maria,
          framework: 'CustomPrompt',
          customPrompt: 'x'.repeat(2001),
        },
      }),
    );
    expect(long.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'customPrompt' });
    expect(long.message).toContain('2000');
    const badId = failure(await c.f.contributor.gql(SUMMARIZE, { input: { objectType: 'NOTE', objectId: 'nope' } }));
    expect(badId.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'objectId' });
  });

  it('passes a custom prompt to the model', async () => {
    c.fake.onChat = () => ({ content: JSON.stringify({ type: 'text', text: 'Short.' }) });
    ok(
      await c.f.contributor.gql(SUMMARIZE, {
        input: {
          objectType: 'NOTE',
          objectId: c.notes.tom,
          framework: 'CustomPrompt',
          customPrompt: 'Write it as a haiku about imports.',
        },
      }),
    );
    const last = c.fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body as {
      messages: Array<{ content: string }>;
    };
    expect(last.messages[0]!.content).toContain('Write it as a haiku about imports.');
  });
});
