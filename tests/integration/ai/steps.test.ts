import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  aiConfig,
  startFakeOpenAI,
  type ChatBody,
  type FakeOpenAI,
  type FakeReply,
} from '../../support/openai-fake.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { createProject, doc, failure, ok, type ContentFixture, type Gql } from '../research/content-support.ts';
import { contentFixture } from '../research/content-support.ts';
import { startAiServer } from './corpus.ts';

/** The AI steps of 002 §3, run by the job a note's new content sets off; the model answers by prompt. */
const RUN = 'id step mode status detail reason model label canUndo canDecide preview';
interface Run {
  id: string;
  step: string;
  mode: string;
  status: string;
  detail: string;
  reason: string | null;
  model: string | null;
  label: string | null;
  canUndo: boolean;
  canDecide: boolean;
  preview: string[];
}

const INTERVIEW = [
  'Priya leads research operations at a travel company with forty researchers.',
  'She said the export to slides breaks the layout every time and costs her team an afternoon a week.',
  'Reach her at priya.shah@travel.example or +44 20 7946 0958 to follow up on the beta.',
  'She would switch tools tomorrow if tagging highlights in bulk were possible.',
];
const EXPORT = 'She said the export to slides breaks the layout every time and costs her team an afternoon a week.';
const BULK = 'She would switch tools tomorrow if tagging highlights in bulk were possible.';
const lines = (...objects: object[]) => objects.map((o) => JSON.stringify(o)).join('\n');

/** Routes each step's prompt to its scripted answer; anything else would fail loudly. */
function routeSteps(fake: FakeOpenAI) {
  fake.clearRoutes();
  fake.route('highlight customer research notes', {
    content: lines(
      { type: 'highlight', text: EXPORT, reason: 'Export pain' },
      { type: 'highlight', text: BULK, reason: 'Switching trigger' },
      { type: 'highlight', text: 'invented' },
    ),
    usage: { prompt: 40, completion: 20 },
  });
  fake.route('You summarise customer research', (body: ChatBody): FakeReply => {
    const noteId = /<source id="([^"]+)" kind="note">/.exec(body.messages[1]!.content)![1]!;
    return {
      content: lines(
        { type: 'text', text: 'Exports to slides break and cost a weekly afternoon; bulk tagging would win her over.' },
        { type: 'quote', itemId: noteId, text: EXPORT },
        { type: 'quote', itemId: noteId, text: 'She loves it.' },
      ),
      usage: { prompt: 50, completion: 30 },
    };
  });
  fake.route('You tag the highlights', (body: ChatBody): FakeReply => {
    const user = body.messages[1]!.content;
    const tag = /<tag id="([^"]+)" title="Export"/.exec(user)![1]!;
    const highlight = [...user.matchAll(/<highlight id="([^"]+)">\n([^\n]*)/g)].find((m) => m[2] === EXPORT)![1]!;
    return {
      content: lines(
        { type: 'tag', highlightId: highlight, tagId: tag },
        { type: 'tag', highlightId: highlight, tagId: '00000000-0000-4000-8000-000000000000' },
      ),
      usage: { prompt: 30, completion: 10 },
    };
  });
  fake.route('You draft one research insight', (body: ChatBody): FakeReply => {
    const ids = [...body.messages[1]!.content.matchAll(/<highlight id="([^"]+)">/g)].map((m) => m[1]!);
    return {
      content: lines(
        {
          type: 'insight',
          title: 'Slide exports cost researchers time',
          text: 'Broken slide exports eat a weekly afternoon.',
        },
        { type: 'quote', highlightId: ids[0], text: EXPORT },
        { type: 'quote', highlightId: ids[1], text: 'made up' },
      ),
      usage: { prompt: 60, completion: 25 },
    };
  });
}

let fake: FakeOpenAI;
let server: TestServer;
let mail: TestMailServer;
let f: ContentFixture;
let project: string;

const setModes = (gql: Gql, modes: Record<string, string>) =>
  gql(`mutation($m: AiModesInput!) { updateAiSettings(input: { modes: $m }) { enabled } }`, { m: modes }).then(ok);
const runs = async (gql: Gql, noteId: string) =>
  ok(await gql<{ aiStepRuns: Run[] }>(`query($n: ID!) { aiStepRuns(noteId: $n) { ${RUN} } }`, { n: noteId }))
    .aiStepRuns;
const byStep = (rs: Run[]) => Object.fromEntries(rs.map((r) => [r.step, r]));

/** Waits until the given steps have each finished on the note (none still running). */
async function settled(gql: Gql, noteId: string, steps: string[]): Promise<Record<string, Run>> {
  const until = Date.now() + 20_000;
  for (;;) {
    const rs = await runs(gql, noteId);
    if (steps.every((s) => rs.some((r) => r.step === s && r.status !== 'RUNNING'))) return byStep(rs);
    if (Date.now() > until) throw new Error(`AI steps did not finish: ${JSON.stringify(rs)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

const createNote = async (gql: Gql, title: string, paragraphs: string[]) =>
  ok(
    await gql<{ createNote: { id: string } }>(
      `mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }`,
      { input: { projectId: project, title, content: doc(...paragraphs) } },
    ),
  ).createNote.id;
const noteText = async (gql: Gql, id: string) =>
  ok(await gql<{ note: { contentText: string } }>(`query($id: ID!) { note(id: $id) { contentText } }`, { id })).note
    .contentText;
const mutate = (gql: Gql, name: 'acceptAiStep' | 'rejectAiStep' | 'undoAiStep', id: string) =>
  gql<Record<string, Run>>(`mutation($id: ID!) { ${name}(id: $id) { ${RUN} } }`, { id });

beforeAll(async () => {
  fake = await startFakeOpenAI();
  ({ server, mail } = await startAiServer({ ...aiConfig(fake), aiSteps: { enabled: true, delaySeconds: 0 } }));
  f = await contentFixture(server, mail);
  project = (await createProject(f.admin, 'Beta interviews')).id;
  const board = ok(
    await f.admin<{ createTagBoard: { id: string } }>(
      `mutation { createTagBoard(input: { title: "Research" }) { id } }`,
    ),
  ).createTagBoard.id;
  for (const title of ['Export', 'Pricing'])
    ok(
      await f.admin(`mutation($b: ID!, $t: String!) { createTag(input: { boardId: $b, title: $t }) { id } }`, {
        b: board,
        t: title,
      }),
    );
  routeSteps(fake);
  // Anything not routed is a call the steps should not have made.
  fake.onChat = () => ({ status: 400, message: 'unexpected prompt' });
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
  await fake?.close();
});

describe('AI steps on a note, by mode', () => {
  it('with the default modes: redacts first, suggests highlights, writes the summary, and says why tags and the insight were skipped', async () => {
    const note = await createNote(f.contributor.gql, 'Interview with Priya', INTERVIEW);
    const r = await settled(f.contributor.gql, note, ['redact', 'highlights', 'tags', 'summarize', 'insights']);
    expect(r.redact).toMatchObject({
      mode: 'On',
      status: 'DONE',
      detail: 'Redacted 1 email address and 1 phone number',
      label: 'Done locally, without an AI model',
      canUndo: true,
    });
    const text = await noteText(f.contributor.gql, note);
    expect(text).not.toContain('priya.shah@travel.example');
    expect(text).toContain('Reach her at █████████████████████████ or ████████████████ to follow up');
    // Nothing after redaction sent the personal data to the model.
    expect(fake.requests.filter((q) => JSON.stringify(q.body).includes('priya.shah'))).toEqual([]);
    expect(r.highlights).toMatchObject({
      mode: 'Suggest',
      status: 'PENDING',
      detail: '2 highlights suggested (1 passage not found in the note dropped)',
      label: 'Written by AI (fake-chat)',
      canDecide: true,
    });
    expect(r.tags).toMatchObject({ mode: 'On', status: 'SKIPPED', reason: 'The note has no highlights to tag yet.' });
    expect(r.insights).toMatchObject({
      status: 'SKIPPED',
      reason: 'A draft insight needs at least 2 highlights; this note has 0.',
    });
    expect(r.summarize).toMatchObject({
      mode: 'On',
      status: 'DONE',
      detail: 'Summary written (1 quote not found in the note removed)',
      label: 'Written by AI (fake-chat)',
      canUndo: true,
    });
    const summary = ok(
      await f.viewer.gql<{
        aiSummary: {
          text: string;
          quotes: Array<{ text: string }>;
          provenance: { label: string; promptTokens: number };
        };
      }>(
        `query($id: ID!) { aiSummary(objectType: NOTE, objectId: $id) { text quotes { text } provenance { label promptTokens } } }`,
        { id: note },
      ),
    ).aiSummary;
    expect(summary).toMatchObject({
      quotes: [{ text: EXPORT }],
      provenance: { label: 'Written by AI (fake-chat) from 1 note', promptTokens: 50 },
    });
    // The note's creator is told the summary is ready; nobody else is.
    const ready = async (gql: typeof f.admin) =>
      ok(
        await gql<{ notifications: Array<{ type: string; payload: Record<string, unknown> }> }>(
          'query { notifications(first: 100) { type payload } }',
        ),
      ).notifications.filter((n) => n.type === 'summary_ready' && n.payload.objectId === note);
    expect(await ready(f.contributor.gql)).toEqual([
      {
        type: 'summary_ready',
        payload: expect.objectContaining({
          objectType: 'NOTE',
          objectId: note,
          objectTitle: 'Interview with Priya',
          projectId: project,
        }),
      },
    ]);
    expect(await ready(f.viewer.gql)).toEqual([]);
    const readyMail = await mail.waitForMail(
      f.contributor.user.email,
      (m) => m.subject === 'The summary of “Interview with Priya” is ready',
    );
    expect(readyMail.text).toContain(`http://localhost:3000/data/${note}`);

    // Accepting the suggested highlights makes them highlights.
    const accepted = ok(await mutate(f.contributor.gql, 'acceptAiStep', r.highlights!.id)).acceptAiStep!;
    expect(accepted).toMatchObject({ status: 'ACCEPTED', canUndo: true });
    const hs = ok(
      await f.contributor.gql<{ highlights: { nodes: Array<{ text: string }> } }>(
        `query($n: ID!) { highlights(noteId: $n) { nodes { text } } }`,
        { n: note },
      ),
    ).highlights.nodes;
    expect(hs.map((h) => h.text).sort()).toEqual([EXPORT, BULK].sort());

    // Viewers see what ran but cannot undo it.
    expect(failure(await mutate(f.viewer.gql, 'undoAiStep', r.summarize!.id))).toMatchObject({
      message: 'Viewers cannot accept, reject or undo what AI did',
    });
    // Undo takes the summary away, and the redaction back.
    expect(ok(await mutate(f.contributor.gql, 'undoAiStep', r.summarize!.id)).undoAiStep).toMatchObject({
      status: 'UNDONE',
      canUndo: false,
    });
    expect(
      ok(
        await f.contributor.gql<{ aiSummary: null }>(
          `query($id: ID!) { aiSummary(objectType: NOTE, objectId: $id) { id } }`,
          { id: note },
        ),
      ).aiSummary,
    ).toBeNull();
    ok(await mutate(f.contributor.gql, 'undoAiStep', r.redact!.id));
    expect(await noteText(f.contributor.gql, note)).toContain('priya.shah@travel.example');
  });

  it('runs once per version of the content: the same job again changes nothing', async () => {
    const note = await createNote(f.contributor.gql, 'Short follow-up', INTERVIEW.slice(0, 2));
    const first = await settled(f.contributor.gql, note, ['redact', 'highlights', 'tags', 'summarize', 'insights']);
    const calls = fake.requests.length;
    await server.fieldbook.jobs.queue.send('ai.note-steps', { workspaceId: f.ws.id, noteId: note });
    await new Promise((r) => setTimeout(r, 1500));
    expect(fake.requests.length).toBe(calls);
    expect(byStep(await runs(f.contributor.gql, note))).toEqual(first);
  });

  it('with highlights, tags and insights On (and summary and redaction Off): an edit makes highlights, tags them from existing tags, drafts an insight; each can be undone', async () => {
    await setModes(f.admin, { summarize: 'Off', highlights: 'On', tags: 'On', redact: 'Off', insights: 'On' });
    const note = await createNote(f.contributor.gql, 'Interview draft', []);
    // The content arrives with an edit, as the editor saves it.
    ok(
      await f.contributor.gql(`mutation($id: ID!, $c: JSON!) { updateNote(id: $id, input: { content: $c }) { id } }`, {
        id: note,
        c: doc(...INTERVIEW),
      }),
    );
    const r = await settled(f.contributor.gql, note, ['highlights', 'tags', 'insights']);
    expect(r.redact).toBeUndefined();
    expect(r.summarize).toBeUndefined();
    expect(await noteText(f.contributor.gql, note)).toContain('priya.shah@travel.example');
    expect(r.highlights).toMatchObject({
      mode: 'On',
      status: 'DONE',
      detail: '2 highlights made (1 passage not found in the note dropped)',
    });
    expect(r.tags).toMatchObject({
      status: 'DONE',
      detail: 'Tagged 1 highlight: Export',
      label: 'Written by AI (fake-chat)',
    });
    expect(r.insights).toMatchObject({
      status: 'DONE',
      detail:
        'Draft insight “Slide exports cost researchers time” created (1 quote not found in the highlights removed)',
    });

    const db = server.fieldbook.db.owner;
    const tagged = await db('highlight_tags as ht')
      .join('tags as t', 't.id', 'ht.tag_id')
      .join('highlights as h', 'h.id', 'ht.highlight_id')
      .where('h.note_id', note)
      .select('t.title', 'h.text');
    expect(tagged).toEqual([{ title: 'Export', text: EXPORT }]);
    const insight = await db('insights')
      .where({ project_id: project, title: 'Slide exports cost researchers time' })
      .whereNull('deleted_at')
      .first('id', 'published_at', 'content_text');
    expect(insight).toMatchObject({
      published_at: null,
      content_text: `Broken slide exports eat a weekly afternoon.\n${EXPORT}`,
    });
    expect(
      await db('ai_provenance')
        .where({ object_type: 'INSIGHT', object_id: insight.id })
        .first('model', 'prompt_version', 'prompt_tokens'),
    ).toEqual({ model: 'fake-chat', prompt_version: 'step-insight-v1', prompt_tokens: 60 });
    expect(
      await db('ai_provenance')
        .where({ object_type: 'AI_STEP', object_id: r.tags!.id })
        .first('prompt_tokens', 'completion_tokens'),
    ).toEqual({ prompt_tokens: 30, completion_tokens: 10 });

    for (const step of ['tags', 'insights', 'highlights'])
      expect(ok(await mutate(f.contributor.gql, 'undoAiStep', r[step]!.id)).undoAiStep).toMatchObject({
        status: 'UNDONE',
      });
    expect(
      await db('highlight_tags as ht')
        .join('highlights as h', 'h.id', 'ht.highlight_id')
        .where('h.note_id', note)
        .count({ n: '*' })
        .first(),
    ).toEqual({ n: 0 });
    expect(await db('insights').where({ id: insight.id }).whereNull('deleted_at').first()).toBeUndefined();
    expect(await db('highlights').where({ note_id: note }).whereNull('deleted_at').count({ n: '*' }).first()).toEqual({
      n: 0,
    });
  });

  it('in Suggest mode nothing changes until a person accepts: redaction marked for review, tags, summary and insight offered', async () => {
    await setModes(f.admin, {
      summarize: 'Suggest',
      highlights: 'On',
      tags: 'Suggest',
      redact: 'Suggest',
      insights: 'Suggest',
    });
    const note = await createNote(f.contributor.gql, 'Interview to review', INTERVIEW);
    const r = await settled(f.contributor.gql, note, ['redact', 'highlights', 'tags', 'summarize', 'insights']);
    expect(r.redact).toMatchObject({
      status: 'PENDING',
      detail: 'Found 1 email address and 1 phone number to review',
      preview: ['1 email address: priya.shah@travel.example', '1 phone number: +44 20 7946 0958'],
    });
    expect(await noteText(f.contributor.gql, note)).toContain('priya.shah@travel.example');
    expect(r.tags).toMatchObject({ status: 'PENDING', preview: ['Export'] });
    expect(r.summarize).toMatchObject({ status: 'PENDING', canDecide: true });
    expect(r.insights).toMatchObject({
      status: 'PENDING',
      preview: ['Slide exports cost researchers time', 'Broken slide exports eat a weekly afternoon.', `“${EXPORT}”`],
    });
    expect(
      ok(
        await f.contributor.gql<{ aiSummary: null }>(
          `query($id: ID!) { aiSummary(objectType: NOTE, objectId: $id) { id } }`,
          { id: note },
        ),
      ).aiSummary,
    ).toBeNull();

    expect(ok(await mutate(f.contributor.gql, 'acceptAiStep', r.redact!.id)).acceptAiStep).toMatchObject({
      status: 'ACCEPTED',
      canUndo: true,
    });
    expect(await noteText(f.contributor.gql, note)).not.toContain('priya.shah@travel.example');
    ok(await mutate(f.contributor.gql, 'acceptAiStep', r.summarize!.id));
    expect(
      ok(
        await f.contributor.gql<{ aiSummary: { quotes: Array<{ text: string }> } }>(
          `query($id: ID!) { aiSummary(objectType: NOTE, objectId: $id) { quotes { text } } }`,
          { id: note },
        ),
      ).aiSummary.quotes,
    ).toEqual([{ text: EXPORT }]);
    expect(ok(await mutate(f.contributor.gql, 'rejectAiStep', r.tags!.id)).rejectAiStep).toMatchObject({
      status: 'REJECTED',
      canDecide: false,
      preview: [],
    });
    expect(failure(await mutate(f.contributor.gql, 'acceptAiStep', r.tags!.id)).message).toBe(
      'This AI step cannot be changed now (it is rejected).',
    );
    ok(await mutate(f.contributor.gql, 'acceptAiStep', r.insights!.id));
    expect(
      await server.fieldbook.db
        .owner('insights')
        .where({ project_id: project, title: 'Slide exports cost researchers time' })
        .whereNull('deleted_at')
        .count({ n: '*' })
        .first(),
    ).toEqual({ n: 1 });
  });
});

describe('AI steps with no model configured', () => {
  let local: { server: TestServer; mail: TestMailServer };
  afterAll(async () => {
    await local?.server.close();
    await local?.mail.close();
  });

  it('redact and summarize locally, suggest key sentences, and skip tags and insights saying what to configure', async () => {
    local = await startAiServer({ aiSteps: { enabled: true, delaySeconds: 0 } });
    const g = await contentFixture(local.server, local.mail, ['CONTRIBUTOR']);
    const p = (await createProject(g.admin, 'Local')).id;
    const note = ok(
      await g.contributor.gql<{ createNote: { id: string } }>(
        `mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }`,
        { input: { projectId: p, title: 'Priya', content: doc(...INTERVIEW) } },
      ),
    ).createNote.id;
    const r = await settled(g.contributor.gql, note, ['redact', 'highlights', 'tags', 'summarize', 'insights']);
    expect(r.redact).toMatchObject({ status: 'DONE', detail: 'Redacted 1 email address and 1 phone number' });
    expect(r.summarize).toMatchObject({ status: 'DONE', label: 'Done locally, without an AI model' });
    expect(r.highlights).toMatchObject({ status: 'PENDING', label: 'Done locally, without an AI model' });
    const needs =
      'needs an AI model and none is configured. Set OPENAI_BASE_URL (and OPENAI_API_KEY, OPENAI_CHAT_MODEL) to use it.';
    expect(r.tags).toMatchObject({ status: 'SKIPPED', reason: `Tagging ${needs}` });
    expect(r.insights).toMatchObject({ status: 'SKIPPED', reason: `A draft insight ${needs}` });
  });
});
