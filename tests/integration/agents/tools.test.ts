import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS_UNAVAILABLE, CHANNEL_TOOL_NAMES, SLACK_NOT_INSTALLED } from '../../../modules/agents/src/index.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { buildCorpus, type Corpus } from '../ai/corpus.ts';
import { failure, ok, type Gql } from '../research/content-support.ts';
import { RUN_TOOL, startAgentsServer, type ToolAnswer } from './support.ts';

let server: TestServer;
let mail: TestMailServer;
let c: Corpus;

beforeAll(async () => {
  ({ server, mail } = await startAgentsServer());
  c = await buildCorpus(server, mail);
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
});

const run = async (who: Gql, name: string, input: unknown) =>
  ok(await who<ToolAnswer>(RUN_TOOL, { name, input })).runAgentTool;
const ids = (a: ToolAnswer['runAgentTool']) => a.items.map((i) => i.id);

describe('agent tools', () => {
  it('offers the research, search, channel and messaging tools with their input schemas', async () => {
    const tools = ok(
      await c.f.viewer.gql<{
        agentTools: Array<{
          name: string;
          access: string;
          needsConfirmation: boolean;
          inputSchema: { type: string; properties: Record<string, unknown> };
        }>;
      }>(`{ agentTools { name access needsConfirmation inputSchema } }`),
    ).agentTools;
    const names = tools.map((t) => t.name);
    for (const n of [
      'list_projects',
      'list_project_notes',
      'get_note',
      'askForConfirmation',
      'keyword_search',
      'semantic_search',
      'filtered_search',
      'search',
      'summary_retrieval',
      'create_document',
      'edit_document',
      'send_email',
      'send_slack_notification',
      ...CHANNEL_TOOL_NAMES,
    ]) {
      expect(names).toContain(n);
    }
    expect(new Set(names).size).toBe(names.length);
    const create = tools.find((t) => t.name === 'create_document')!;
    expect(create).toMatchObject({ access: 'write', needsConfirmation: true, inputSchema: { type: 'object' } });
    expect(Object.keys(create.inputSchema.properties)).toEqual(['projectId', 'title', 'text']);
    expect(
      tools.find((t) => t.name === 'list_channel_datums_by_theme')!.inputSchema.properties.datumCount,
    ).toMatchObject({ default: 10 });
  });

  it('never returns an item of a restricted project to someone who cannot read it', async () => {
    const secretIds = [c.notes.secret, c.highlights.secret, c.secretProject];
    const adminProjects = await run(c.f.admin, 'list_projects', {});
    expect(ids(adminProjects)).toContain(c.secretProject);
    const adminHits = await run(c.f.admin, 'keyword_search', { query: 'pricing onboarding' });
    expect(ids(adminHits)).toContain(c.notes.secret);

    for (const who of [c.f.contributor.gql, c.f.viewer.gql]) {
      const projects = await run(who, 'list_projects', {});
      expect(ids(projects)).toEqual([c.study]);
      expect(projects.text).not.toContain('Acquisition');
      for (const [name, input] of [
        ['keyword_search', { query: 'pricing onboarding' }],
        ['semantic_search', { query: 'acquire a competitor' }],
        ['search', { query: 'pricing' }],
        ['filtered_search', { query: 'pricing', projectIds: [c.secretProject] }],
        ['filtered_search', { resultTypes: ['NOTE', 'HIGHLIGHT', 'PROJECT'] }],
      ] as const) {
        const a = await run(who, name, input);
        expect(
          ids(a).some((id) => secretIds.includes(id)),
          name,
        ).toBe(false);
        expect(a.text, name).not.toContain('acquire a competitor');
      }
      for (const [name, input] of [
        ['get_note', { noteId: c.notes.secret }],
        ['list_project_notes', { projectId: c.secretProject }],
        ['summary_retrieval', { objectType: 'note', objectId: c.notes.secret }],
      ] as const) {
        expect(failure(await who(RUN_TOOL, { name, input })).extensions?.errorCode, name).toBe('NOT_FOUND');
      }
    }
  });

  it('reads notes and projects the person can read, with links to them', async () => {
    const notes = await run(c.f.contributor.gql, 'list_project_notes', { projectId: c.study });
    expect(ids(notes).sort()).toEqual([c.notes.maria, c.notes.tom].sort());
    expect((notes.data as Array<{ createdAt: string }>)[0]!.createdAt).toMatch(/^\d{4}-/);
    const note = await run(c.f.viewer.gql, 'get_note', { noteId: c.notes.tom });
    expect(note.text).toContain('importing old interviews failed twice');
    expect(note.items[0]).toMatchObject({ type: 'NOTE', id: c.notes.tom, url: `/data/${c.notes.tom}` });
    const hits = await run(c.f.viewer.gql, 'keyword_search', { query: 'annual discount' });
    expect(ids(hits)).toContain(c.notes.tom);
    const hit = (hits.data as Array<Record<string, unknown>>).find((h) => h.id === c.notes.tom)!;
    expect(Object.keys(hit).sort()).toEqual([
      'chunk',
      'created_at',
      'id',
      'item_type',
      'project_id',
      'project_title',
      'score',
      'tags',
      'title',
    ]);
    expect(hit).toMatchObject({ item_type: 'NOTE', project_id: c.study, project_title: 'Onboarding study' });
    const semantic = await run(c.f.viewer.gql, 'semantic_search', { query: 'annual discount' });
    expect(semantic.text).toMatch(/^No embedding model is configured/);
    expect(ids(semantic)).toContain(c.notes.tom);
  });

  it('checks input, naming the field, and keeps viewers from tools that change things', async () => {
    const bad = failure(await c.f.viewer.gql(RUN_TOOL, { name: 'get_note', input: { noteId: 'nope' } }));
    expect(bad.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'noteId' });
    const limit = failure(
      await c.f.viewer.gql(RUN_TOOL, { name: 'keyword_search', input: { query: 'x', limit: 5000 } }),
    );
    expect(limit.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'limit' });
    expect(limit.message).toContain('50');
    const unknown = failure(await c.f.viewer.gql(RUN_TOOL, { name: 'rm_rf', input: {} }));
    expect(unknown.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'name' });
    const viewer = failure(
      await c.f.viewer.gql(RUN_TOOL, {
        name: 'create_document',
        input: { projectId: c.study, title: 'From a viewer' },
      }),
    );
    expect(viewer.extensions?.errorCode).toBe('FORBIDDEN');
  });

  it('writes notes where the person may, recording that AI made them', async () => {
    const refused = failure(
      await c.f.contributor.gql(RUN_TOOL, {
        name: 'create_document',
        input: { projectId: c.secretProject, title: 'Leak', text: 'x' },
      }),
    );
    expect(refused.extensions?.errorCode).toBe('NOT_FOUND');
    const made = await run(c.f.contributor.gql, 'create_document', {
      projectId: c.study,
      title: 'Agent notes',
      text: 'First line.\nSecond line.',
    });
    const id = made.items[0]!.id;
    await run(c.f.contributor.gql, 'edit_document', { noteId: id, text: 'Third line.' });
    const note = await run(c.f.contributor.gql, 'get_note', { noteId: id });
    expect(note.text).toContain('First line.');
    expect(note.text).toContain('Third line.');
    const provenance = await server.fieldbook.db
      .owner('ai_provenance')
      .where({ object_type: 'NOTE', object_id: id })
      .first();
    expect(provenance).toMatchObject({ prompt_version: 'agents-1' });
  });

  it('says plainly what the workspace lacks: channels, Slack, email to outsiders', async () => {
    for (const [name, input] of [
      ['list_channels', {}],
      ['list_themes', { channelId: c.study }],
      ['list_channel_datums_by_theme', { channelId: c.study, themeId: c.study }],
    ] as const) {
      expect((await run(c.f.viewer.gql, name, input)).text).toBe(CHANNELS_UNAVAILABLE);
    }
    expect((await run(c.f.contributor.gql, 'send_slack_notification', { channelIds: ['C1'], text: 'hi' })).text).toBe(
      SLACK_NOT_INSTALLED,
    );
    const before = mail.received.length;
    expect(
      (
        await run(c.f.contributor.gql, 'send_email', {
          to: ['someone@elsewhere.example'],
          subject: 'Hi',
          text: 'Secrets',
        })
      ).text,
    ).toMatch(/^Nothing was sent/);
    expect(mail.received.length).toBe(before);
  });
});
