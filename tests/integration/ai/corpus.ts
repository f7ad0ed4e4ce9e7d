import { afterAll, beforeAll, expect } from 'vitest';
import type { Config } from '../../../core/src/config.ts';
import ai from '../../../modules/ai/src/index.ts';
import research from '../../../modules/research/src/index.ts';
import search from '../../../modules/search/src/index.ts';
import { aiConfig, startFakeOpenAI, type FakeOpenAI } from '../../support/openai-fake.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { contentFixture, createProject, doc, ok, type ContentFixture, type Gql } from '../research/content-support.ts';

/** A Fieldbook with research, search and AI, for one test file. */
export async function startAiServer(
  overrides: Partial<Config> = {},
): Promise<{ server: TestServer; mail: TestMailServer }> {
  const mail = await startMailServer();
  const server = await startTestServer({ smtpUrl: mail.url, ...overrides }, { modules: [research, search, ai] });
  return { server, mail };
}

/**
 * The fixed corpus every AI test reads: an onboarding study (two interview notes with
 * highlights, an insight) everyone may read, and a restricted "Acquisition plans" project only
 * the admin may read, whose words overlap the questions asked.
 */
export const TEXTS = {
  interview1: [
    'Maria runs a design agency with twelve people.',
    'She said the onboarding flow took far too long and she almost gave up on the second day.',
    'The pricing page was confusing because the plans used different words for the same limits.',
    'What she liked most was how quickly her team could share highlights with clients.',
  ],
  interview2: [
    'Tom is an operations lead at a logistics company.',
    'He told us the onboarding checklist helped, but importing old interviews failed twice.',
    'Pricing felt fair for his team, though he wanted an annual discount.',
    'He asked for a Slack integration so his team sees new insights without logging in.',
  ],
  insight: ['Onboarding is where new customers struggle most: setup takes too long and imports fail.'],
  secret: ['We plan to acquire a competitor next quarter; pricing will change after the onboarding merge.'],
} as const;

export interface Corpus {
  f: ContentFixture;
  study: string;
  secretProject: string;
  notes: { maria: string; tom: string; secret: string };
  insight: string;
  highlights: { flowTooLong: string; importsFailed: string; secret: string };
}

async function note(gql: Gql, projectId: string, title: string, paragraphs: readonly string[]) {
  return ok(
    await gql<{ createNote: { id: string; contentText: string } }>(
      `mutation($input: CreateNoteInput!) { createNote(input: $input) { id contentText } }`,
      {
        input: { projectId, title, content: doc(...paragraphs) },
      },
    ),
  ).createNote;
}

async function highlight(gql: Gql, n: { id: string; contentText: string }, span: string): Promise<string> {
  const start = n.contentText.indexOf(span);
  expect(start).toBeGreaterThanOrEqual(0);
  return ok(
    await gql<{ createHighlight: { id: string } }>(
      `mutation($input: CreateHighlightInput!) { createHighlight(input: $input) { id } }`,
      {
        input: { noteId: n.id, startOffset: start, endOffset: start + span.length },
      },
    ),
  ).createHighlight.id;
}

export async function buildCorpus(server: TestServer, mail: TestMailServer): Promise<Corpus> {
  const f = await contentFixture(server, mail);
  const study = (await createProject(f.admin, 'Onboarding study')).id;
  const maria = await note(f.admin, study, 'Interview with Maria', TEXTS.interview1);
  const tom = await note(f.admin, study, 'Interview with Tom', TEXTS.interview2);
  const insight = ok(
    await f.admin<{ createInsight: { id: string } }>(
      `mutation($input: CreateInsightInput!) { createInsight(input: $input) { id } }`,
      {
        input: { projectId: study, title: 'Onboarding friction', content: doc(...TEXTS.insight) },
      },
    ),
  ).createInsight.id;
  const flowTooLong = await highlight(f.admin, maria, 'the onboarding flow took far too long');
  const importsFailed = await highlight(f.admin, tom, 'importing old interviews failed twice');

  const secretProject = (await createProject(f.admin, 'Acquisition plans')).id;
  const secret = await note(f.admin, secretProject, 'Board minutes on onboarding and pricing', TEXTS.secret);
  const secretHighlight = await highlight(f.admin, secret, 'pricing will change after the onboarding merge');
  ok(
    await f.admin(`mutation($id: ID!, $m: JSON!) { updateProjectAccess(projectId: $id, permissions: $m) { id } }`, {
      id: secretProject,
      m: { groups: { markup: 'none' }, users: {} },
    }),
  );
  return {
    f,
    study,
    secretProject,
    notes: { maria: maria.id, tom: tom.id, secret: secret.id },
    insight,
    highlights: { flowTooLong, importsFailed, secret: secretHighlight },
  };
}

/** The corpus with the fake model and the Fieldbook that serve it. */
export interface AiCorpus extends Corpus {
  fake: FakeOpenAI;
  server: TestServer;
  mail: TestMailServer;
}

/**
 * Registers the test file's `beforeAll`/`afterAll`: a fake OpenAI-compatible model, a Fieldbook
 * with AI talking to it, and the corpus built once for the whole file. The returned object is
 * filled in by the time the tests run.
 */
export function useAiCorpus(): AiCorpus {
  const fixture = {} as AiCorpus;
  beforeAll(async () => {
    fixture.fake = await startFakeOpenAI();
    Object.assign(fixture, await startAiServer(aiConfig(fixture.fake)));
    Object.assign(fixture, await buildCorpus(fixture.server, fixture.mail));
  });
  afterAll(async () => {
    await fixture.server?.close();
    await fixture.mail?.close();
    await fixture.fake?.close();
  });
  return fixture;
}

export const ANSWER_FIELDS = `question droppedQuotes unsupportedClaims local label model
  blocks { __typename ... on AnswerHeadingBlock { level content } ... on AnswerTextBlock { content citations { id type parentId title projectTitle text quote citationReferenceId url } } }
  summary { summary numProjects numHighlights numChannels numItems isQuestion citations { id type quote } }`;

export const SUMMARY_FIELDS = `id objectType objectId kind framework status message text droppedQuotes contributors
  sections { title startTime text } quotes { itemId text }
  provenance { model endpointHost promptVersion inputIds promptTokens completionTokens local label }`;

export interface Citation {
  id: string;
  type: string;
  parentId: string | null;
  title: string;
  projectTitle: string;
  text: string;
  quote: string;
  citationReferenceId: string;
  url: string | null;
}
export interface Answer {
  question: string;
  droppedQuotes: number;
  unsupportedClaims: number;
  local: boolean;
  label: string;
  model: string;
  blocks: Array<{ __typename: string; level?: number; content: string; citations?: Citation[] }>;
  summary: {
    summary: string;
    numProjects: number;
    numHighlights: number;
    numChannels: number;
    numItems: number;
    isQuestion: boolean;
    citations: Array<{ id: string; type: string; quote: string }>;
  };
}

/** Reads an SSE response into its events. */
export async function readEvents(res: Response): Promise<Array<{ event: string; data: unknown }>> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((b) => b.trim())
    .map((b) => {
      const event = /^event: (.*)$/m.exec(b)?.[1] ?? 'message';
      const data = JSON.parse(/^data: (.*)$/m.exec(b)?.[1] ?? 'null') as unknown;
      return { event, data };
    });
}
