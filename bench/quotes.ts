/**
 * Quote verification: the evaluation of bench/quotes/ (a fixed corpus in nine languages, a
 * scripted model writing quotes of every kind into Ask answers and summaries) against a running
 * Fieldbook, printing shown and dropped per kind. Every verified kind must be shown and no other:
 * "unverified shown" and "verified dropped" are 0 on a correct build.
 *
 * `npm run bench` runs it with the others. `tsx bench/quotes.ts` runs it alone on a fresh
 * Fieldbook; BENCH_QUOTE_ASKS (default 6) questions, BENCH_QUOTE_ROUNDS (default 3) summaries of
 * every note.
 */
import { startFakeOpenAI, type FakeOpenAI } from '../tests/support/openai-fake.ts';
import {
  evaluateQuotes,
  loadQuoteCorpus,
  quoteEvaluationLines,
  type Call,
  type QuoteEvaluation,
} from './quotes/evaluate.ts';
import { graphql, signUpResearcher, withFieldbook } from './support.ts';

export type { QuoteEvaluation };

const INVITE = 'mutation($input: InviteMembersInput!) { inviteMembers(input: $input) { id } }';
const ACCEPT = 'mutation($token: String!) { acceptInvite(token: $token) { role } }';

/**
 * A workspace of its own: the admin who writes the corpus and a contributor, who asks and
 * summarises, and cannot open the restricted project.
 */
export async function benchQuotes(o: {
  url: string;
  mailbox: ReadonlyArray<{ to: string; text: string }>;
  fake: FakeOpenAI;
  asks?: number;
  rounds?: number;
  log(line: string): void;
}): Promise<QuoteEvaluation> {
  const { url, mailbox, fake, log } = o;
  const admin = await signUpResearcher(url, mailbox, 'bench-quotes-admin', 'Quote Admin');
  const ws = (
    await graphql<{ createWorkspace: { workspace: { id: string } } }>(
      url,
      'mutation ($input: CreateWorkspaceInput!) { createWorkspace(input: $input) { workspace { id } } }',
      { input: { method: 'AUTH0', teamName: `Quote bench ${Date.now().toString(36)}` } },
      admin.token,
    )
  ).createWorkspace.workspace.id;
  const asker = await signUpResearcher(url, mailbox, 'bench-quotes-asker', 'Quote Asker');
  await graphql(url, INVITE, { input: { emails: [asker.email], role: 'CONTRIBUTOR' } }, admin.token, ws);
  const link = mailbox
    .filter((m) => m.to === asker.email)
    .map((m) => /accept-invite\?token=([\w.~%-]+)/.exec(m.text)?.[1])
    .findLast(Boolean);
  if (!link) throw new Error('no invite mail arrived');
  await graphql(url, ACCEPT, { token: decodeURIComponent(link) }, asker.token);
  const as =
    (token: string): Call =>
    <T>(query: string, variables: Record<string, unknown> = {}) =>
      graphql<T>(url, query, variables, token, ws);
  log('quotes: writing the corpus ...');
  const corpus = await loadQuoteCorpus(as(admin.token));
  log('quotes: asking and summarising with the scripted model ...');
  return evaluateQuotes({
    asker: as(asker.token),
    fake,
    corpus,
    asks: o.asks ?? Number(process.env.BENCH_QUOTE_ASKS ?? 6),
    summaryRounds: o.rounds ?? Number(process.env.BENCH_QUOTE_ROUNDS ?? 3),
  });
}

export const quotesLines = quoteEvaluationLines;

async function main(): Promise<void> {
  const fake = await startFakeOpenAI();
  try {
    const result = await withFieldbook(
      {
        label: 'quotes',
        env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key', OPENAI_CHAT_MODEL: 'fake-chat' },
      },
      ({ url, mailbox, log }) => benchQuotes({ url, mailbox, fake, log }),
    );
    console.log(quotesLines(result).join('\n'));
    if (result.unverifiedShown || result.verifiedDropped || result.miscounted) process.exitCode = 1;
  } finally {
    await fake.close();
  }
}

if (process.argv[1]?.endsWith('bench/quotes.ts')) await main();
