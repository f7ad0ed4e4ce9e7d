/**
 * AI: Ask's retrieval (lexical, through the search engine, over the research benchmark's
 * generated workspace) p50 and p95 in-process, and the time Fieldbook adds around a model that
 * answers at once (the local OpenAI-compatible server of tests/support/openai-fake.ts, answering
 * a short JSON-lines answer with no delay): the whole Ask through the API, retrieval, prompt,
 * streaming parse and quote verification included.
 *
 * `npm run bench` runs it after search, on the same data. `tsx bench/ai.ts` runs it alone on a
 * database kept between runs (BENCH_AI_DIR, default /tmp/fieldbook-ai-bench), generating the
 * research workspace on the first run only at BENCH_AI_SCALE (default 0.1: 10,000 notes).
 */
import type { Knex } from 'knex';
import { createAiService } from '../core/src/ai/provider.ts';
import type { Config } from '../core/src/config.ts';
import { withTenant } from '../core/src/db/tenancy.ts';
import { createLogger } from '../core/src/logger.ts';
import { retrieve } from '../modules/ai/src/ask/retrieve.ts';
import { backfillEmbeddings } from '../modules/ai/src/embeddings/embeddings.ts';
import { searchAccess } from '../modules/search/src/engine/access.ts';
import { PostgresSearchEngine } from '../modules/search/src/engine/postgres/postgres-engine.ts';
import { promptSources, type FakeOpenAI } from '../tests/support/openai-fake.ts';
import { graphql, percentile, round, withFieldbook } from './support.ts';

export interface AiBench {
  questions: number;
  retrievalP50Ms: number;
  retrievalP95Ms: number;
  /** Sources retrieved per question, on average. */
  sourcesPerQuestion: number;
  askP50Ms: number;
  askP95Ms: number;
  /** The model's own share: from its request arriving to its answer (near 0 for the local server). */
  modelP50Ms: number;
  /** Embeddings of every note, insight and highlight written, against the local server. */
  backfill: { items: number; seconds: number; perSecond: number };
}

const QUESTIONS = [
  'What do customers say about onboarding?',
  'Why are documents scattered across teams?',
  'What frustrates people about pricing and plans?',
  'Which features do teams ask for most?',
  'How do researchers share findings with the team?',
  'What problems come up with exports?',
  'Where do new customers get stuck?',
  'What do people say about search?',
];
const RUNS = 40;

export async function benchAi(opts: {
  app: Knex;
  owner: Knex;
  config: Config;
  url: string;
  token: string;
  workspaceId: string;
  fake: FakeOpenAI;
  log(line: string): void;
}): Promise<AiBench> {
  const { app, owner, workspaceId, log, fake } = opts;
  const [member] = (await owner('workspace_members')
    .where({ workspace_id: workspaceId })
    .limit(1)
    .select('user_id')) as Array<{ user_id: string }>;
  const userId = member!.user_id;
  // The generated workspace's creator is its admin: the engine reads every project for them.
  const caller = {
    userId,
    workspaceId,
    membership: {
      role: 'MANAGER' as const,
      workspaceAdmin: true,
      effectiveRole: 'WORKSPACE_ADMIN' as const,
      groupIds: [],
    },
  };
  const search = { engine: new PostgresSearchEngine(app, opts.config.search), access: searchAccess };
  const noModel = createAiService({
    config: { ...opts.config, ai: { ...opts.config.ai, baseUrl: undefined } },
    db: app,
    logger: createLogger('silent'),
  });

  log(`AI: Ask retrieval, ${RUNS} questions ...`);
  const retrieval: number[] = [];
  let sources = 0;
  for (let i = 0; i < RUNS + 3; i++) {
    const started = performance.now();
    const found = await withTenant(app, { workspaceId, userId }, (trx) =>
      retrieve(trx, caller, search, noModel, QUESTIONS[i % QUESTIONS.length]!),
    );
    if (i >= 3) {
      retrieval.push(performance.now() - started);
      sources += found.length;
    }
  }

  log(`AI: Ask through the API around a model answering at once, ${RUNS} questions ...`);
  const modelMs: number[] = [];
  fake.onChat = (body) => {
    const arrived = performance.now();
    const [s] = promptSources(body);
    const content = [
      JSON.stringify({ type: 'heading', level: 2, content: 'What the research says' }),
      JSON.stringify({
        type: 'text',
        content: 'One finding.',
        citations: s ? [{ ref: s.ref, quote: s.text.split('\n').slice(-1)[0]!.slice(0, 40) }] : [],
      }),
    ].join('\n');
    modelMs.push(performance.now() - arrived);
    return { content, chunkChars: 64 };
  };
  const ask: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const started = performance.now();
    await graphql(
      opts.url,
      'query($q: String!) { ask(input: { question: $q }) { label droppedQuotes } }',
      { q: QUESTIONS[i % QUESTIONS.length] },
      opts.token,
      workspaceId,
    );
    if (i >= 3) ask.push(performance.now() - started);
  }
  // Said at once: on a large workspace the backfill below takes many minutes.
  log(
    `  retrieval p50 ${round(percentile(retrieval, 50))} ms, p95 ${round(percentile(retrieval, 95))} ms; Ask p50 ${round(percentile(ask, 50))} ms, p95 ${round(percentile(ask, 95))} ms`,
  );
  // Under a model name of its own, so every item is embedded afresh, and removed afterwards so a
  // kept database does not grow from run to run.
  log('AI: embedding backfill of the workspace against the local server ...');
  const embeddingModel = `bench-embedding-${Date.now().toString(36)}`;
  const embedder = createAiService({
    config: { ...opts.config, ai: { ...opts.config.ai, embeddingModel } },
    db: app,
    logger: createLogger('silent'),
  });
  const backfillStarted = performance.now();
  const embedded = await backfillEmbeddings(app, embedder, workspaceId);
  const backfillSeconds = (performance.now() - backfillStarted) / 1000;
  await owner('ai_embeddings').where({ workspace_id: workspaceId, model: embeddingModel }).delete();
  return {
    backfill: {
      items: embedded,
      seconds: round(backfillSeconds),
      perSecond: round(embedded / Math.max(backfillSeconds, 0.001), 0),
    },
    questions: RUNS,
    retrievalP50Ms: round(percentile(retrieval, 50)),
    retrievalP95Ms: round(percentile(retrieval, 95)),
    sourcesPerQuestion: round(sources / RUNS),
    askP50Ms: round(percentile(ask, 50)),
    askP95Ms: round(percentile(ask, 95)),
    modelP50Ms: round(percentile(modelMs, 50), 2),
  };
}

export function aiTable(r: AiBench): string[] {
  return [
    `AI (${r.questions} questions, ${r.sourcesPerQuestion} sources each on average)`,
    `  Ask retrieval (lexical)      p50 ${r.retrievalP50Ms} ms   p95 ${r.retrievalP95Ms} ms`,
    `  Ask, model answering at once p50 ${r.askP50Ms} ms   p95 ${r.askP95Ms} ms   (model's own p50 ${r.modelP50Ms} ms)`,
    `  Embedding backfill           ${r.backfill.items} items in ${r.backfill.seconds} s, ${r.backfill.perSecond}/s`,
  ];
}

async function main(): Promise<void> {
  const { join } = await import('node:path');
  const { keptResearchWorkspace } = await import('./research.ts');
  const { startFakeOpenAI } = await import('../tests/support/openai-fake.ts');
  const fake = await startFakeOpenAI();
  try {
    const keptDir = process.env.BENCH_AI_DIR ?? '/tmp/fieldbook-ai-bench';
    const env = { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key', OPENAI_CHAT_MODEL: 'fake-chat' };
    await withFieldbook(
      { label: 'bench-ai', keptDir, pgPort: process.env.BENCH_AI_PG_PORT ?? '54339', env },
      async ({ fieldbook, config, url, dataDir, mailbox, log }) => {
        const stateFile = join(dataDir, 'bench-ai.json');
        const state = await keptResearchWorkspace({
          owner: fieldbook.db.owner,
          url,
          mailbox,
          stateFile,
          prefix: 'bench-ai',
          scale: Number(process.env.BENCH_AI_SCALE ?? 0.1),
          log,
        });
        const { token } = state;
        const r = await benchAi({
          app: fieldbook.db.app,
          owner: fieldbook.db.owner,
          config,
          url,
          token,
          workspaceId: state.workspaceId,
          fake,
          log,
        });
        for (const line of aiTable(r)) console.log(line);
      },
    );
  } finally {
    await fake.close();
  }
}

if (process.argv[1]?.endsWith('bench/ai.ts')) await main();
