import { promptSources, summarySources, type ChatBody, type FakeOpenAI } from '../../tests/support/openai-fake.ts';
import { NOTES, PROJECT, RESTRICTED_NOTE, RESTRICTED_PROJECT, type CorpusNote } from './corpus.ts';
import {
  isProse,
  KINDS,
  PROSE_MARKS,
  quotesFor,
  random,
  VERIFIED_KINDS,
  type QuoteKind,
  type ScriptedQuote,
} from './kinds.ts';

/**
 * The quote evaluation: a scripted model (the local OpenAI-compatible server) answers Ask and
 * writes summaries over the fixed corpus with quotes of every kind, and what the person is shown
 * is compared with what the model wrote. A verified kind must always be shown, every other kind
 * never, and each answer's droppedQuotes must count exactly the quotes it dropped.
 */

/** GraphQL as one person in the evaluation's workspace; throws on errors. */
export type Call = <T>(query: string, variables?: Record<string, unknown>) => Promise<T>;

export interface KindTally {
  kind: QuoteKind;
  /** What the reader should see of this kind. */
  expected: 'shown' | 'dropped';
  shown: number;
  dropped: number;
}

export interface QuoteEvaluation {
  kinds: KindTally[];
  quotes: number;
  asks: number;
  summaries: number;
  unverifiedShown: number;
  verifiedDropped: number;
  /** Answers whose droppedQuotes (and, for Ask, unsupportedClaims) differed from what was dropped. */
  miscounted: number;
}

const doc = (paragraphs: readonly string[]) => ({
  type: 'doc',
  content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});

export interface LoadedCorpus {
  /** Note ids by title, readable by the asker. */
  notes: Map<string, string>;
  restrictedId: string;
}

/** Writes the corpus as `admin`: the notes in a project everyone reads, one note in a project only the admin reads. */
export async function loadQuoteCorpus(admin: Call): Promise<LoadedCorpus> {
  const project = async (title: string) =>
    (
      await admin<{ createProject: { id: string } }>(
        'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
        { input: { title } },
      )
    ).createProject.id;
  const note = async (projectId: string, n: CorpusNote) =>
    (
      await admin<{ createNote: { id: string } }>(
        'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
        { input: { projectId, title: n.title, content: doc(n.paragraphs) } },
      )
    ).createNote.id;
  const study = await project(PROJECT);
  const notes = new Map<string, string>();
  for (const n of NOTES) notes.set(n.title, await note(study, n));
  const board = await project(RESTRICTED_PROJECT);
  const restrictedId = await note(board, RESTRICTED_NOTE);
  await admin('mutation($id: ID!, $m: JSON!) { updateProjectAccess(projectId: $id, permissions: $m) { id } }', {
    id: board,
    m: { groups: { markup: 'none' }, users: {} },
  });
  return { notes, restrictedId };
}

const ASK_PROMPT = 'You answer questions about customer research';
/** Summaries the evaluation asks for carry this in their custom prompt, so no background summary takes their script. */
const SUMMARY_MARK = 'quote-evaluation';
const ASK = `query($q: String!) { ask(input: { question: $q }) {
  droppedQuotes unsupportedClaims
  blocks { __typename ... on AnswerTextBlock { content citations { id quote } } }
} }`;
const SUMMARIZE = `mutation($input: SummarizeInput!) { summarize(input: $input) { status text droppedQuotes quotes { itemId text } } }`;
const QUESTIONS = [
  'What do customers say about Fieldbook exports?',
  'Why do teams find exports slow?',
  'What do researchers say about pricing and exports?',
];

const byText = new Map([...NOTES, RESTRICTED_NOTE].map((n) => [n.title, n]));
const noteOf = (text: string) => byText.get(text.split('\n')[0]!.trim());

interface Scripted extends ScriptedQuote {
  n: number;
}

/** Runs `asks` questions and summarises every note `summaryRounds` times, tallying what was shown. */
export async function evaluateQuotes(opts: {
  asker: Call;
  fake: FakeOpenAI;
  corpus: LoadedCorpus;
  asks: number;
  summaryRounds: number;
  seed?: number;
}): Promise<QuoteEvaluation> {
  const { asker, fake, corpus } = opts;
  const rnd = random(opts.seed ?? 2026);
  const tallies = new Map<QuoteKind, KindTally>(
    KINDS.map((k) => [k, { kind: k, expected: VERIFIED_KINDS.has(k) ? 'shown' : 'dropped', shown: 0, dropped: 0 }]),
  );
  const count = (q: ScriptedQuote, shown: boolean) => {
    const t = tallies.get(q.kind)!;
    if (shown) t.shown += 1;
    else t.dropped += 1;
  };
  let n = 0;
  let script: Scripted[] = [];
  const others = (note: CorpusNote) => NOTES.filter((x) => x !== note);
  const mark = (i: number) => PROSE_MARKS[i % PROSE_MARKS.length]!;

  fake.route(ASK_PROMPT, (body: ChatBody) => {
    const lines: string[] = [];
    script = [];
    for (const s of promptSources(body)) {
      const note = noteOf(s.text);
      if (!note || note === RESTRICTED_NOTE) continue;
      const quotes = quotesFor(note, others(note), RESTRICTED_NOTE, rnd).map((q) => ({ ...q, n: ++n }));
      const support = quotes.find((q) => q.kind === 'exact')!.text;
      for (const q of quotes) {
        script.push(q);
        const [open, close] = mark(q.n);
        lines.push(
          JSON.stringify(
            isProse(q.kind)
              ? {
                  type: 'text',
                  content: `Claim ${q.n}: ${open}${q.text}${close}.`,
                  citations: [{ ref: s.ref, quote: support }],
                }
              : { type: 'text', content: `Claim ${q.n}.`, citations: [{ ref: s.ref, quote: q.text }] },
          ),
        );
      }
    }
    return { content: lines.join('\n'), chunkChars: 64 };
  });
  fake.route(SUMMARY_MARK, (body: ChatBody) => {
    const [source] = summarySources(body);
    const note = source && noteOf(source.text);
    script = [];
    if (!note) return { content: JSON.stringify({ type: 'notEnoughData' }) };
    const lines = [JSON.stringify({ type: 'text', text: 'What the interview says.' })];
    for (const q of quotesFor(note, others(note), RESTRICTED_NOTE, rnd)) {
      const s = { ...q, n: ++n };
      script.push(s);
      const [open, close] = mark(s.n);
      // The restricted note's words are cited to the note summarised, or to the restricted note itself.
      const itemId = q.kind === "restricted note's" && s.n % 2 ? corpus.restrictedId : source.id;
      lines.push(
        JSON.stringify(
          isProse(q.kind)
            ? { type: 'text', text: `Claim ${s.n}: ${open}${q.text}${close}.` }
            : { type: 'quote', itemId, text: q.text },
        ),
      );
    }
    return { content: lines.join('\n'), chunkChars: 64 };
  });

  let miscounted = 0;
  let asks = 0;
  for (let i = 0; i < opts.asks; i++) {
    const a = (
      await asker<{
        ask: {
          droppedQuotes: number;
          unsupportedClaims: number;
          blocks: Array<{ content?: string; citations?: Array<{ id: string; quote: string }> }>;
        };
      }>(ASK, { q: QUESTIONS[i % QUESTIONS.length] })
    ).ask;
    asks += 1;
    const blocks = new Map(
      a.blocks.flatMap((b) => {
        const m = b.content ? /^Claim (\d+)[.:]/.exec(b.content) : null;
        return m ? [[Number(m[1]), b] as const] : [];
      }),
    );
    let dropped = 0;
    let unsupported = 0;
    for (const q of script) {
      const b = blocks.get(q.n);
      const shown = isProse(q.kind) ? Boolean(b?.content?.includes(q.text)) : Boolean(b?.citations?.length);
      count(q, shown);
      if (!shown) {
        dropped += 1;
        if (!isProse(q.kind)) unsupported += 1;
      }
    }
    if (a.droppedQuotes !== dropped || a.unsupportedClaims !== unsupported) miscounted += 1;
  }

  let summaries = 0;
  for (let round = 0; round < opts.summaryRounds; round++)
    for (const [title, id] of corpus.notes) {
      const s = (
        await asker<{
          summarize: {
            status: string;
            text: string;
            droppedQuotes: number;
            quotes: Array<{ itemId: string; text: string }>;
          };
        }>(SUMMARIZE, {
          input: {
            objectType: 'NOTE',
            objectId: id,
            framework: 'CustomPrompt',
            customPrompt: `Summarise the interview (${SUMMARY_MARK}, round ${round + 1}).`,
          },
        })
      ).summarize;
      if (s.status !== 'OK') throw new Error(`The summary of “${title}” was ${s.status}.`);
      summaries += 1;
      let dropped = 0;
      for (const q of script) {
        const shown = isProse(q.kind) ? s.text.includes(q.text) : s.quotes.some((x) => x.text === q.text);
        count(q, shown);
        if (!shown) dropped += 1;
      }
      if (s.droppedQuotes !== dropped) miscounted += 1;
    }
  fake.clearRoutes();

  const kinds = [...tallies.values()];
  return {
    kinds,
    quotes: kinds.reduce((sum, k) => sum + k.shown + k.dropped, 0),
    asks,
    summaries,
    unverifiedShown: kinds.filter((k) => k.expected === 'dropped').reduce((sum, k) => sum + k.shown, 0),
    verifiedDropped: kinds.filter((k) => k.expected === 'shown').reduce((sum, k) => sum + k.dropped, 0),
    miscounted,
  };
}

/** The evaluation as the bench prints it: shown and dropped per kind. */
export function quoteEvaluationLines(e: QuoteEvaluation): string[] {
  const width = Math.max(...e.kinds.map((k) => k.kind.length));
  return [
    `Quote verification (${e.quotes} quotes from a scripted model: ${e.asks} Ask answers, ${e.summaries} summaries)`,
    `  ${'kind'.padEnd(width)}  shown  dropped  should be`,
    ...e.kinds.map(
      (k) =>
        `  ${k.kind.padEnd(width)}  ${String(k.shown).padStart(5)}  ${String(k.dropped).padStart(7)}  ${k.expected}`,
    ),
    `  unverified shown: ${e.unverifiedShown}; verified dropped: ${e.verifiedDropped}; answers miscounting dropped quotes: ${e.miscounted}`,
  ];
}
