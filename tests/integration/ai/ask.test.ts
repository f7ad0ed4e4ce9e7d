import { describe, expect, it } from 'vitest';
import { normalizeForQuote } from '../../../core/src/ai/quotes.ts';
import { SUGGESTED_QUESTIONS } from '../../../modules/ai/src/ask/suggested.ts';
import { promptSources, type ChatBody } from '../../support/openai-fake.ts';
import { failure, ok } from '../research/content-support.ts';
import { ANSWER_FIELDS, readEvents, TEXTS, useAiCorpus, type Answer } from './corpus.ts';

const c = useAiCorpus();

const ASK = `query($input: AskInput!) { ask(input: $input) { ${ANSWER_FIELDS} } }`;
const ALL_TEXT = normalizeForQuote(
  [...TEXTS.interview1, ...TEXTS.interview2, ...TEXTS.insight, ...TEXTS.secret].join(' '),
);

/**
 * The scripted model: cites every source it was given with a true quote (its first sentence), an
 * altered one and an invented one, and also cites a ref it never received.
 */
function scriptedAnswer(body: ChatBody) {
  const sources = promptSources(body);
  const lines = [JSON.stringify({ type: 'heading', level: 1, content: 'Onboarding' })];
  for (const s of sources) {
    const sentence =
      s.text
        .split('\n')
        .slice(1)
        .join(' ')
        .split(/(?<=\.)\s/)[0] || s.text.split('\n')[0]!;
    lines.push(
      JSON.stringify({
        type: 'text',
        content: `About ${s.title}.`,
        citations: [
          { ref: s.ref, quote: sentence },
          { ref: s.ref, quote: sentence.replace(' ', ' really ') },
          { ref: s.ref, quote: 'Customers adore the new dashboard' },
        ],
      }),
    );
  }
  lines.push(
    JSON.stringify({
      type: 'text',
      content: 'And a claim from nowhere.',
      citations: [{ ref: 'S99', quote: TEXTS.secret[0] }],
    }),
  );
  return { content: lines.join('\n'), chunkChars: 11 };
}

function citationsOf(a: Answer) {
  return a.blocks.flatMap((b) => b.citations ?? []);
}

describe('Ask', () => {
  it('answers in blocks whose every displayed quote is found verbatim in its source', async () => {
    c.fake.onChat = scriptedAnswer;
    const a = ok(
      await c.f.admin<{ ask: Answer }>(ASK, { input: { question: 'Why do new customers struggle with onboarding?' } }),
    ).ask;
    expect(a.blocks[0]).toEqual({ __typename: 'AnswerHeadingBlock', level: 1, content: 'Onboarding' });
    const cites = citationsOf(a);
    expect(cites.length).toBeGreaterThan(0);
    // 0 unverified quotes displayed: every quote is in the corpus, in the source it names.
    for (const q of cites) expect(ALL_TEXT).toContain(normalizeForQuote(q.quote));
    const given = promptSources(
      c.fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body as ChatBody,
    ).length;
    // Per source: the altered and the invented quote; plus the citation of a ref never given.
    expect(a.droppedQuotes).toBe(given * 2 + 1);
    expect(a.summary).toMatchObject({ isQuestion: true, numChannels: 0 });
    expect(a.summary.numItems).toBe(new Set(cites.map((q) => q.id)).size);
    expect(a.summary.numHighlights).toBe(new Set(cites.filter((q) => q.type === 'highlight').map((q) => q.id)).size);
    expect(a.label).toMatch(/^Written by AI \(fake-chat\) from \d+ sources?$/);
    const hl = cites.find((q) => q.type === 'highlight');
    expect(hl?.parentId).toBeTruthy();
    expect(hl?.url).toBe(`/data/${hl!.parentId}#highlight=${hl!.id}`);
  });

  it('never retrieves or cites what the asker cannot read: a restricted project', async () => {
    c.fake.onChat = scriptedAnswer;
    const question = 'What will change about pricing after the onboarding merge?';
    const secretIds = [c.notes.secret, c.highlights.secret];
    const admin = ok(await c.f.admin<{ ask: Answer }>(ASK, { input: { question } })).ask;
    // The admin may read the restricted project, so its items can be cited for them…
    expect(citationsOf(admin).some((q) => secretIds.includes(q.id))).toBe(true);

    for (const who of [c.f.contributor.gql, c.f.viewer.gql]) {
      const before = c.fake.requests.length;
      const a = ok(await who<{ ask: Answer }>(ASK, { input: { question } })).ask;
      const cites = citationsOf(a);
      expect(cites.some((q) => secretIds.includes(q.id) || q.projectTitle === 'Acquisition plans')).toBe(false);
      // …and for the others the model was never even shown them.
      const prompts = c.fake.requests.slice(before).filter((r) => r.path === '/v1/chat/completions');
      for (const p of prompts) expect(JSON.stringify(p.body)).not.toContain('acquire a competitor');
      for (const q of cites) expect(normalizeForQuote(TEXTS.secret[0])).not.toContain(normalizeForQuote(q.quote));
    }
  });

  it('streams the answer block by block over server-sent events', async () => {
    c.fake.onChat = (b) => ({ ...scriptedAnswer(b), delayMs: 1 });
    const res = await fetch(`${c.server.url}/api/ai/ask/stream`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${c.f.viewer.accessToken}`,
        'x-fieldbook-workspace': c.f.ws.id,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ question: 'Where do imports fail?' }),
    });
    expect(res.status).toBe(200);
    const events = await readEvents(res);
    expect(events[0]!.event).toBe('sources');
    const blocks = events.filter((e) => e.event === 'block');
    expect(blocks.length).toBeGreaterThan(1);
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    expect((done.data as { blocks: unknown[] }).blocks).toEqual(blocks.map((b) => b.data));
    for (const b of blocks)
      for (const q of (b.data as { citations?: Array<{ quote: string }> }).citations ?? [])
        expect(ALL_TEXT).toContain(normalizeForQuote(q.quote));
  });

  it('checks the quotations written in its text and leaves out a claim whose every citation was dropped', async () => {
    const invented = 'we will renew for five years no matter the price';
    c.fake.onChat = (body) => {
      const [s] = promptSources(body);
      // A true quotation: the first words of the source's last line, cut on word boundaries.
      const said = s!.text.split('\n').at(-1)!.split(' ').slice(0, 6).join(' ');
      return {
        content: [
          JSON.stringify({
            type: 'text',
            content: `They said “${said}” and also “${invented}”, or in other words "${invented}".`,
            citations: [{ ref: s!.ref, quote: said }],
          }),
          JSON.stringify({
            type: 'text',
            content: 'Customers adore the dashboard.',
            citations: [{ ref: s!.ref, quote: 'Customers adore the new dashboard' }],
          }),
          JSON.stringify({ type: 'text', content: 'The sources say nothing more.', citations: [] }),
        ].join('\n'),
      };
    };
    const a = ok(
      await c.f.admin<{ ask: Answer }>(ASK, { input: { question: 'Why do new customers struggle with onboarding?' } }),
    ).ask;
    const texts = a.blocks.map((b) => b.content);
    expect(texts[0]).toMatch(
      /^They said “.+” and also \[quote removed: not found in the sources\], or in other words \[quote removed: not found in the sources\]\.$/,
    );
    expect(texts).not.toContain('Customers adore the dashboard.');
    expect(texts).toContain('The sources say nothing more.');
    expect(JSON.stringify(a)).not.toContain(invented);
    // Two quotations in prose and the only citation of the claim left out.
    expect(a.droppedQuotes).toBe(3);
    expect(a.unsupportedClaims).toBe(1);
  });

  it('checks the question', async () => {
    const empty = failure(await c.f.viewer.gql(ASK, { input: { question: '  ' } }));
    expect(empty.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'question' });
    const long = failure(await c.f.viewer.gql(ASK, { input: { question: 'why '.repeat(200) } }));
    expect(long.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'question' });
    expect(long.message).toContain('500');
  });

  it('suggests questions by job function: 27 general, 15 marketing and sales, 7 support and success, 17 finance, operations and legal', async () => {
    const q = async (jobFunction: string | null) =>
      ok(
        await c.f.viewer.gql<{ suggestedQuestions: string[] }>(
          `query($j: String) { suggestedQuestions(jobFunction: $j) }`,
          { j: jobFunction },
        ),
      ).suggestedQuestions;
    expect(await q(null)).toHaveLength(27);
    expect(await q('design')).toEqual(SUGGESTED_QUESTIONS.general);
    expect(await q('marketing')).toHaveLength(15);
    expect(await q('sales')).toEqual(SUGGESTED_QUESTIONS.marketingSales);
    expect(await q('customer success')).toHaveLength(7);
    expect(await q('support')).toEqual(SUGGESTED_QUESTIONS.supportSuccess);
    for (const f of ['finance', 'operations', 'legal']) expect(await q(f)).toHaveLength(17);
    const all = [
      ...SUGGESTED_QUESTIONS.general,
      ...SUGGESTED_QUESTIONS.marketingSales,
      ...SUGGESTED_QUESTIONS.supportSuccess,
      ...SUGGESTED_QUESTIONS.financeOpsLegal,
    ];
    expect(new Set(all).size).toBe(all.length);
  });
});
