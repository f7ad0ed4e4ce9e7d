import { expect } from 'vitest';
import type { Config } from '../../../core/src/config.ts';
import research from '../../../modules/research/src/index.ts';
import search from '../../../modules/search/src/index.ts';
import { startTestServer, type GqlResult, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { contentFixture, createProject, doc, ok, type ContentFixture, type Gql } from '../research/content-support.ts';

export { ok };

/** A Fieldbook with the research and search modules, for one test file. */
export async function startSearchServer(
  overrides: Partial<Config> = {},
): Promise<{ server: TestServer; mail: TestMailServer }> {
  const mail = await startMailServer();
  const server = await startTestServer({ smtpUrl: mail.url, ...overrides }, { modules: [research, search] });
  return { server, mail };
}

export const SEARCH = `query($input: SearchInput!) {
  search(input: $input) {
    totalCount
    totalIsEstimate
    countsByType { type count isEstimate }
    hits { type id title snippet projectId projectTitle parentId score updatedAt }
  }
}`;

export interface Hit {
  type: string;
  id: string;
  title: string;
  snippet: string | null;
  projectId: string | null;
  projectTitle: string | null;
  parentId: string | null;
  score: number;
  updatedAt: string;
}
export interface Results {
  totalCount: number;
  totalIsEstimate: boolean;
  countsByType: Array<{ type: string; count: number; isEstimate: boolean }>;
  hits: Hit[];
}

export const runSearch = (gql: Gql, input: Record<string, unknown>): Promise<GqlResult<{ search: Results }>> =>
  gql<{ search: Results }>(SEARCH, { input });
export const searchOk = async (gql: Gql, input: Record<string, unknown>): Promise<Results> =>
  ok(await runSearch(gql, input)).search;

async function mutate<T>(gql: Gql, query: string, variables: Record<string, unknown>): Promise<T> {
  return ok(await gql<Record<string, T>>(query, variables)) as unknown as T;
}
const first = <T>(data: unknown): T => Object.values(data as Record<string, T>)[0]!;

/**
 * The research data every search test reads, made through the research API as people make it:
 * folder "Discovery" holding project "Onboarding study" (P1); project "Retention study" (P2)
 * outside it; notes, insights, highlights, tags, a person, a star and note fields of each type.
 */
export interface SearchWorld {
  f: ContentFixture;
  folderId: string;
  p1: string;
  p2: string;
  notes: { interview: string; pricing: string; blank: string; churn: string };
  insights: { published: string; draft: string };
  highlights: { flow: string; enterprise: string; clear: string };
  tags: { usability: string; pricing: string };
  personId: string;
  fields: { segment: string; source: string; score: string; followUp: string; interviewed: string };
  options: { smb: string; enterprise: string };
}

async function createNote(
  gql: Gql,
  projectId: string,
  title: string,
  text: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; contentText: string }> {
  return first(
    await mutate(gql, `mutation($input: CreateNoteInput!) { createNote(input: $input) { id contentText } }`, {
      input: { projectId, title, content: doc(text), ...extra },
    }),
  );
}

async function highlight(gql: Gql, note: { id: string; contentText: string }, span: string): Promise<string> {
  const start = note.contentText.indexOf(span);
  expect(start, `"${span}" in "${note.contentText}"`).toBeGreaterThanOrEqual(0);
  return first<{ id: string }>(
    await mutate(gql, `mutation($input: CreateHighlightInput!) { createHighlight(input: $input) { id } }`, {
      input: { noteId: note.id, startOffset: start, endOffset: start + span.length },
    }),
  ).id;
}

async function field(
  gql: Gql,
  type: string,
  label: string,
  options?: string[],
): Promise<{ id: string; options: Array<{ id: string; label: string }> }> {
  return first(
    await mutate(
      gql,
      `mutation($input: CreateFieldInput!) { createField(input: $input) { id options { id label } } }`,
      {
        input: {
          objectType: 'NOTE',
          type,
          label,
          ...(options ? { options: options.map((label) => ({ label })) } : {}),
        },
      },
    ),
  );
}

async function setValue(
  gql: Gql,
  noteId: string,
  fieldId: string,
  value: unknown,
  optionIds?: string[],
): Promise<void> {
  await mutate(
    gql,
    `mutation($o: ID!, $f: ID!, $v: JSON, $ids: [String!]) { setFieldValue(objectType: NOTE, objectId: $o, fieldId: $f, value: $v, optionIds: $ids) { objectId } }`,
    {
      o: noteId,
      f: fieldId,
      v: value,
      ids: optionIds,
    },
  );
}

export async function buildWorld(server: TestServer, mail: TestMailServer): Promise<SearchWorld> {
  const f = await contentFixture(server, mail);
  const gql = f.admin;
  const folderId = first<{ id: string }>(
    await mutate(gql, `mutation($t: String!) { createFolder(title: $t) { id } }`, { t: 'Discovery' }),
  ).id;
  const p1 = (await createProject(gql, 'Onboarding study', { folderId })).id;
  const p2 = (await createProject(gql, 'Retention study')).id;

  const interview = await createNote(
    gql,
    p1,
    'Customer interview with Zoë',
    'The onboarding flow confused the customer. Pricing was clear.',
  );
  const pricing = await createNote(gql, p1, 'Pricing call', 'They asked about enterprise pricing tiers.', {
    archived: true,
  });
  const blank = await createNote(gql, p1, 'Blank page', '');
  const churn = await createNote(gql, p2, 'Churn survey', 'Customers left because of slow support & "bugs" < 5 times.');

  const insight = (title: string, text: string) =>
    mutate(gql, `mutation($input: CreateInsightInput!) { createInsight(input: $input) { id } }`, {
      input: { projectId: p1, title, content: doc(text) },
    }).then((d) => first<{ id: string }>(d).id);
  const published = await insight('Onboarding friction', 'Users drop off during onboarding.');
  const draft = await insight('Draft idea', 'Maybe a wizard helps.');
  await mutate(gql, `mutation($id: ID!) { publishInsight(id: $id) { id } }`, { id: published });

  const flow = await highlight(gql, interview, 'onboarding flow');
  const clear = await highlight(gql, interview, 'Pricing was clear');
  const enterprise = await highlight(gql, pricing, 'enterprise pricing');

  const board = first<{ id: string }>(
    await mutate(gql, `mutation($input: CreateTagBoardInput!) { createTagBoard(input: $input) { id } }`, {
      input: { projectId: p1, title: 'Themes' },
    }),
  ).id;
  const tag = (title: string) =>
    mutate(gql, `mutation($input: CreateTagInput!) { createTag(input: $input) { id } }`, {
      input: { boardId: board, title },
    }).then((d) => first<{ id: string }>(d).id);
  const usability = await tag('Usability');
  const pricingTag = await tag('Pricing');
  const tagIt = (h: string, ids: string[]) =>
    mutate(gql, `mutation($h: ID!, $t: [ID!]!) { tagHighlight(highlightId: $h, tagIds: $t) { id } }`, { h, t: ids });
  await tagIt(flow, [usability, pricingTag]);
  await tagIt(enterprise, [pricingTag]);

  const personId = first<{ id: string }>(
    await mutate(gql, `mutation($input: CreatePersonInput!) { createPerson(input: $input) { id } }`, {
      input: { name: 'Renée Dupont' },
    }),
  ).id;
  await mutate(gql, `mutation($n: ID!, $p: ID!) { addPersonToNote(noteId: $n, personId: $p) { id } }`, {
    n: interview.id,
    p: personId,
  });
  await mutate(gql, `mutation($id: ID!) { setStarred(type: NOTE, id: $id, starred: true) }`, { id: interview.id });

  const segment = await field(gql, 'SELECT', 'Segment', ['SMB', 'Enterprise']);
  const source = await field(gql, 'TEXT', 'Source');
  const score = await field(gql, 'NUMBER', 'Score');
  const followUp = await field(gql, 'BOOLEAN', 'Follow-up');
  const interviewed = await field(gql, 'DATETIME', 'Interviewed');
  const smb = segment.options.find((o) => o.label === 'SMB')!.id;
  const enterpriseOption = segment.options.find((o) => o.label === 'Enterprise')!.id;
  await setValue(gql, interview.id, segment.id, null, [smb]);
  await setValue(gql, interview.id, source.id, 'Zoom call');
  await setValue(gql, interview.id, score.id, 8);
  await setValue(gql, interview.id, followUp.id, true);
  await setValue(gql, interview.id, interviewed.id, '2020-01-15');
  await setValue(gql, pricing.id, segment.id, null, [enterpriseOption]);
  await setValue(gql, pricing.id, source.id, 'Phone');
  await setValue(gql, pricing.id, score.id, 3);
  await setValue(gql, pricing.id, followUp.id, false);
  await setValue(gql, pricing.id, interviewed.id, new Date().toISOString().slice(0, 10));

  // The pricing call happened two years ago: dates people cannot set through the API.
  const twoYearsAgo = new Date(Date.now() - 2 * 365 * 24 * 3600 * 1000);
  await server.fieldbook.db
    .owner('notes')
    .where({ id: pricing.id })
    .update({ created_at: twoYearsAgo, updated_at: twoYearsAgo });

  return {
    f,
    folderId,
    p1,
    p2,
    notes: { interview: interview.id, pricing: pricing.id, blank: blank.id, churn: churn.id },
    insights: { published, draft },
    highlights: { flow, enterprise, clear },
    tags: { usability, pricing: pricingTag },
    personId,
    fields: {
      segment: segment.id,
      source: source.id,
      score: score.id,
      followUp: followUp.id,
      interviewed: interviewed.id,
    },
    options: { smb, enterprise: enterpriseOption },
  };
}
