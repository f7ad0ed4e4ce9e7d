import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_FILES, MANIFEST_FILE } from '../../../modules/research/src/transfers/format.ts';
import { EXPORT_QUEUE, IMPORT_QUEUE } from '../../../modules/research/src/transfers/records.ts';
import { extractTar, writeTar } from '../../../modules/research/src/transfers/tar.ts';
import { createWorkspaceWithAdmin, gqlAs, type WorkspaceFixture } from '../../support/factories.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import {
  contentFixture,
  createProject,
  doc,
  failure,
  ok,
  startResearchServer,
  type ContentFixture,
  type Gql,
} from './content-support.ts';

const TRANSFER =
  'id kind status progress counts error projectId projectTitle fileSize downloadUrl sourceExportId createdById completedAt';
const EXPORT = `mutation($projectId: ID!) { exportProject(projectId: $projectId) { ${TRANSFER} } }`;
const IMPORT = `mutation($input: ImportProjectInput!) { importProject(input: $input) { ${TRANSFER} } }`;
const GET = `query($id: ID!) { projectTransfer(id: $id) { ${TRANSFER} } }`;
const LIST = `query($projectId: ID!) { projectTransfers(projectId: $projectId) { id kind status } }`;
const MAPPINGS = `query($id: ID!, $kind: TransferIdKind!) { projectTransfer(id: $id) { idMappings(kind: $kind, first: 1000) { sourceId targetId } } }`;
const NOTIFICATIONS = `{ notifications(first: 50) { type payload } }`;

interface Transfer {
  id: string;
  kind: string;
  status: string;
  progress: number;
  counts: Record<string, number>;
  error: string | null;
  projectId: string | null;
  projectTitle: string | null;
  fileSize: number | null;
  downloadUrl: string | null;
  sourceExportId: string | null;
}

let server: TestServer;
let mail: TestMailServer;
let a: ContentFixture;
let b: WorkspaceFixture;
let adminB: Gql;
let scratch: string;

beforeAll(async () => {
  ({ server, mail } = await startResearchServer());
  a = await contentFixture(server, mail);
  // The admin of A creates B as well: the same person, a member of both workspaces.
  b = await createWorkspaceWithAdmin(server, mail, { admin: a.ws.admin });
  adminB = gqlAs(server, a.ws.admin.accessToken, b.id);
  scratch = await mkdtemp(join(tmpdir(), 'fieldbook-transfers-'));
});

afterAll(async () => {
  await server?.close();
  await mail?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

async function waitFor(
  gql: Gql,
  id: string,
  done = (t: Transfer) => t.status === 'COMPLETED' || t.status === 'FAILED',
): Promise<Transfer> {
  const deadline = Date.now() + 25_000;
  for (;;) {
    const t = ok(await gql<{ projectTransfer: Transfer }>(GET, { id })).projectTransfer;
    if (done(t)) return t;
    if (Date.now() > deadline) throw new Error(`transfer ${id} is still ${t.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function download(token: string, workspaceId: string, url: string): Promise<Response> {
  return fetch(`${server.url}${url}`, {
    headers: { authorization: `Bearer ${token}`, 'x-fieldbook-workspace': workspaceId },
  });
}

/** Downloads an export and unpacks it into a folder of its own. */
async function unpack(token: string, workspaceId: string, transfer: Transfer): Promise<string> {
  const res = await download(token, workspaceId, transfer.downloadUrl!);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/x-tar');
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(bytes.length).toBe(transfer.fileSize);
  const dir = await mkdtemp(join(scratch, 'x-'));
  await writeFile(join(dir, 'archive.tar'), bytes);
  const files = join(dir, 'files');
  await rm(files, { recursive: true, force: true });
  await (await import('node:fs/promises')).mkdir(files);
  await extractTar(join(dir, 'archive.tar'), files, () => true);
  return files;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** A record with its ids left out: keys named id or ending in Id/Ids, and uuids inside strings. */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'id' && !/Ids?$/.test(k) && k !== 'projects')
        .map(([k, v]) => [k, withoutIds(v)]),
    );
  }
  return typeof value === 'string' ? value.replace(UUID, '<id>') : value;
}

async function normalized(dir: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const name of Object.values(EXPORT_FILES)) {
    const lines = (await readFile(join(dir, name), 'utf8')).split('\n').filter(Boolean);
    out[name] = lines.map((l) => JSON.stringify(withoutIds(JSON.parse(l)))).sort();
  }
  return out;
}

async function projectCount(gql: Gql): Promise<number> {
  return ok(await gql<{ projects: unknown[] }>('{ projects { id } }')).projects.length;
}

describe('project export and import', () => {
  let projectId: string;
  let citedId: string;
  let exported: Transfer;
  let imported: Transfer;

  it('builds a project with rich content, tags, fields, people and comments', async () => {
    const g = a.admin;
    const folder = ok(
      await g<{ createFolder: { id: string } }>(`mutation { createFolder(title: "Research 2025") { id } }`),
    ).createFolder;
    projectId = (
      await createProject(g, 'Onboarding study', {
        color: '#3e63dd',
        readme: doc('Why we run this study'),
        enabledSections: ['NOTES', 'INSIGHTS', 'TAGS'],
        folderId: folder.id,
      })
    ).id;
    const note = (title: string, content: unknown) =>
      g<{ createNote: { id: string } }>(`mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }`, {
        input: { projectId, title, content },
      });
    const rich = {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Interview one' }] },
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'The setup was ' },
            { type: 'text', marks: [{ type: 'bold' }], text: 'confusing' },
            { type: 'text', text: ' at first.' },
          ],
        },
        {
          type: 'bulletList',
          content: [
            {
              type: 'listItem',
              content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Pricing page unclear' }] }],
            },
          ],
        },
      ],
    };
    const n1 = ok(await note('Interview one', rich)).createNote;
    const n2 = ok(await note('Interview two', doc('Loved the import flow', 'Wants SSO'))).createNote;
    const insight = ok(
      await g<{ createInsight: { id: string } }>(
        `mutation($input: CreateInsightInput!) { createInsight(input: $input) { id } }`,
        {
          input: {
            projectId,
            title: 'Setup is confusing',
            content: doc('Several people struggled with setup.'),
            summary: doc('Setup hurts activation'),
          },
        },
      ),
    ).createInsight;
    ok(await g(`mutation($id: ID!) { publishInsight(id: $id) { id } }`, { id: insight.id }));

    const highlight = (noteId: string, startOffset: number, endOffset: number) =>
      g<{ createHighlight: { id: string } }>(
        `mutation($input: CreateHighlightInput!) { createHighlight(input: $input) { id } }`,
        { input: { noteId, startOffset, endOffset } },
      );
    const h1 = ok(await highlight(n1.id, 14, 37)).createHighlight;
    const h2 = ok(await highlight(n2.id, 0, 21)).createHighlight;
    ok(
      await g(`mutation($i: ID!, $h: ID!) { citeHighlight(insightId: $i, highlightId: $h) { id } }`, {
        i: insight.id,
        h: h1.id,
      }),
    );
    citedId = h1.id;

    const board = ok(
      await g<{ createTagBoard: { id: string } }>(
        `mutation($input: CreateTagBoardInput!) { createTagBoard(input: $input) { id } }`,
        { input: { projectId, title: 'Themes' } },
      ),
    ).createTagBoard;
    const group = ok(
      await g<{ createTagGroup: { id: string } }>(
        `mutation($input: CreateTagGroupInput!) { createTagGroup(input: $input) { id } }`,
        { input: { boardId: board.id, title: 'Pain', color: '#e5484d' } },
      ),
    ).createTagGroup;
    const tag = (input: Record<string, unknown>) =>
      g<{ createTag: { id: string } }>(`mutation($input: CreateTagInput!) { createTag(input: $input) { id } }`, {
        input,
      });
    const t1 = ok(
      await tag({ boardId: board.id, groupId: group.id, title: 'Onboarding friction', color: '#e5484d' }),
    ).createTag;
    const t2 = ok(await tag({ boardId: board.id, title: 'Delight', color: '#30a46c' })).createTag;
    const wsBoard = ok(
      await g<{ createTagBoard: { id: string } }>(
        `mutation($input: CreateTagBoardInput!) { createTagBoard(input: $input) { id } }`,
        { input: { title: 'Company wide' } },
      ),
    ).createTagBoard;
    const t3 = ok(await tag({ boardId: wsBoard.id, title: 'Enterprise', color: '#8e4ec6' })).createTag;
    ok(await tag({ boardId: wsBoard.id, title: 'Unused elsewhere', color: '#8e4ec6' }));
    ok(
      await g(`mutation($h: ID!, $t: [ID!]!) { tagHighlight(highlightId: $h, tagIds: $t) { id } }`, {
        h: h1.id,
        t: [t1.id, t3.id],
      }),
    );
    ok(
      await g(`mutation($h: ID!, $t: [ID!]!) { tagHighlight(highlightId: $h, tagIds: $t) { id } }`, {
        h: h2.id,
        t: [t2.id],
      }),
    );

    const field = (input: Record<string, unknown>) =>
      g<{ createField: { id: string; options: Array<{ id: string; label: string }> } }>(
        `mutation($input: CreateFieldInput!) { createField(input: $input) { id options { id label } } }`,
        { input },
      );
    const segment = ok(
      await field({
        objectType: 'NOTE',
        projectId,
        type: 'SELECT',
        label: 'Segment',
        options: [{ label: 'SMB' }, { label: 'Enterprise' }],
      }),
    ).createField;
    const score = ok(await field({ objectType: 'NOTE', projectId, type: 'NUMBER', label: 'Score' })).createField;
    const owner = ok(await field({ objectType: 'WORKSPACE', type: 'PERSON', label: 'Owner' })).createField;
    const impact = ok(await field({ objectType: 'INSIGHT', projectId, type: 'TEXT', label: 'Impact' })).createField;
    const setValue = (objectType: string, objectId: string, fieldId: string, extra: Record<string, unknown>) =>
      g(
        `mutation($t: FieldValueObjectType!, $o: ID!, $f: ID!, $v: JSON, $ids: [String!]) { setFieldValue(objectType: $t, objectId: $o, fieldId: $f, value: $v, optionIds: $ids) { value } }`,
        {
          t: objectType,
          o: objectId,
          f: fieldId,
          ...extra,
        },
      );
    ok(await setValue('NOTE', n1.id, segment.id, { ids: [segment.options.find((o) => o.label === 'Enterprise')!.id] }));
    ok(await setValue('NOTE', n1.id, score.id, { v: 7 }));
    ok(await setValue('NOTE', n2.id, owner.id, { v: [a.ws.admin.user.id] }));
    ok(await setValue('INSIGHT', insight.id, impact.id, { v: 'High' }));

    const person = ok(
      await g<{ createPerson: { id: string } }>(
        `mutation($input: CreatePersonInput!) { createPerson(input: $input) { id } }`,
        { input: { name: 'Dana Customer', email: 'dana@customer.example', company: 'Acme' } },
      ),
    ).createPerson;
    ok(
      await g(`mutation($n: ID!, $p: ID!) { addPersonToNote(noteId: $n, personId: $p) { id } }`, {
        n: n1.id,
        p: person.id,
      }),
    );
    ok(
      await g(`mutation($h: ID!, $p: ID!) { addPersonToHighlight(highlightId: $h, personId: $p) { id } }`, {
        h: h1.id,
        p: person.id,
      }),
    );
    ok(
      await g(`mutation($input: CreateCommentInput!) { createComment(input: $input) { id } }`, {
        input: {
          objectType: 'NOTE',
          objectId: n1.id,
          body: `Worth a follow-up, @[${a.ws.admin.user.name}](${a.ws.admin.user.id})`,
        },
      }),
    );
    ok(
      await g(`mutation($input: CreateCommentInput!) { createComment(input: $input) { id } }`, {
        input: { objectType: 'INSIGHT', objectId: insight.id, body: 'Agreed.' },
      }),
    );
    ok(
      await g(
        `mutation($p: ID!, $input: CreateProjectViewInput!) { createProjectView(projectId: $p, input: $input) { id } }`,
        {
          p: projectId,
          input: { title: 'Notes board', layout: 'BOARD', objectType: 'NOTE' },
        },
      ),
    );
  });

  it('allows contributors and above to export projects they can read', async () => {
    expect(failure(await a.viewer.gql(EXPORT, { projectId })).extensions?.errorCode).toBe('FORBIDDEN');
    expect(failure(await adminB(EXPORT, { projectId })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(
      failure(await a.contributor.gql(EXPORT, { projectId: '00000000-0000-4000-8000-000000000000' })).extensions
        ?.errorCode,
    ).toBe('NOT_FOUND');
  });

  it('exports a project as the jsonl files of 001 §3.7 with a manifest, in a background job', async () => {
    const started = ok(await a.admin<{ exportProject: Transfer }>(EXPORT, { projectId })).exportProject;
    expect(started).toMatchObject({
      kind: 'EXPORT',
      status: 'QUEUED',
      progress: 0,
      projectId,
      projectTitle: 'Onboarding study',
      downloadUrl: null,
    });
    exported = await waitFor(a.admin, started.id);
    expect(exported.error).toBeNull();
    expect(exported).toMatchObject({ status: 'COMPLETED', progress: 100, downloadUrl: `/api/exports/${started.id}` });
    expect(exported.counts).toMatchObject({
      notes: 2,
      insights: 1,
      highlights: 2,
      tags: 3,
      tagGroups: 1,
      tagBoards: 2,
      fields: 4,
      people: 1,
      comments: 2,
      projectCategories: 1,
      projectViews: 1,
    });

    const dir = await unpack(a.ws.admin.accessToken, a.ws.id, exported);
    expect((await readdir(dir)).sort()).toEqual([...Object.values(EXPORT_FILES), MANIFEST_FILE].sort());
    const manifest = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8'));
    expect(manifest.config).toMatchObject({ title: 'Onboarding study', projectIds: [projectId] });
    expect(manifest.files).toHaveLength(Object.keys(EXPORT_FILES).length);
    expect(manifest.files.every((f: { uploadStatus: string }) => f.uploadStatus === 'COMPLETE')).toBe(true);
    const notes = (await readFile(join(dir, EXPORT_FILES.notes), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const first = notes.find((n) => n.title === 'Interview one');
    expect(Object.keys(first)).toEqual(
      expect.arrayContaining([
        'id',
        'title',
        'locked',
        'richText',
        'fieldDatum',
        'fileId',
        'published',
        'summaryContent',
        'summaryFramework',
        'summaryLanguage',
      ]),
    );
    expect(first.richText.content[1].content[1]).toEqual({
      type: 'text',
      marks: [{ type: 'bold' }],
      text: 'confusing',
    });
    expect(first.highlights[0]).toMatchObject({
      text: 'The setup was confusing',
      tagIds: expect.any(Array),
      people: [expect.objectContaining({ email: 'dana@customer.example' })],
    });
    // The cited highlight stays with its note; the insight keeps the citation.
    const insights = (await readFile(join(dir, EXPORT_FILES.insights), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(insights).toHaveLength(1);
    expect(insights[0].citedHighlightIds).toEqual([citedId]);
    expect(insights[0].highlights).toEqual([]);
    expect(notes.flatMap((n) => n.highlights.map((h: { id: string }) => h.id))).toContain(citedId);
    const tags = (await readFile(join(dir, EXPORT_FILES.tags), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(tags.map((t) => t.title).sort()).toEqual(['Delight', 'Enterprise', 'Onboarding friction']);
    expect(Object.keys(tags[0])).toEqual(
      expect.arrayContaining(['id', 'tagGroupId', 'color', 'rank', 'title', 'locked', 'description', 'role']),
    );
    const project = JSON.parse((await readFile(join(dir, EXPORT_FILES.project), 'utf8')).trim());
    expect(project).toMatchObject({
      title: 'Onboarding study',
      color: '#3e63dd',
      notesEnabled: true,
      notesRank: 0,
      chartsEnabled: false,
      projectCategoryId: expect.any(String),
    });

    const list = ok(
      await a.contributor.gql<{ projectTransfers: Array<{ id: string }> }>(LIST, { projectId }),
    ).projectTransfers;
    expect(list.map((t) => t.id)).toContain(exported.id);
  });

  it('serves the download only to members of the workspace who can read the project', async () => {
    expect((await download(a.viewer.accessToken, a.ws.id, exported.downloadUrl!)).status).toBe(200);
    expect((await download(a.ws.admin.accessToken, b.id, exported.downloadUrl!)).status).toBe(404);
    expect(
      (await fetch(`${server.url}${exported.downloadUrl}`, { headers: { 'x-fieldbook-workspace': a.ws.id } })).status,
    ).toBe(401);
  });

  it('imports the export into another workspace with new ids, and exports it again with the same content', async () => {
    const before = await projectCount(adminB);
    const started = ok(
      await adminB<{ importProject: Transfer }>(IMPORT, { input: { exportId: exported.id } }),
    ).importProject;
    expect(started).toMatchObject({ kind: 'IMPORT', status: 'QUEUED', sourceExportId: exported.id });
    imported = await waitFor(adminB, started.id);
    expect(imported.error).toBeNull();
    expect(imported.status).toBe('COMPLETED');
    expect(imported.projectId).not.toBe(projectId);
    expect(await projectCount(adminB)).toBe(before + 1);

    const notesMap = ok(
      await adminB<{ projectTransfer: { idMappings: Array<{ sourceId: string; targetId: string }> } }>(MAPPINGS, {
        id: imported.id,
        kind: 'notes',
      }),
    ).projectTransfer.idMappings;
    expect(notesMap).toHaveLength(2);
    for (const m of notesMap) expect(m.targetId).not.toBe(m.sourceId);
    const project = ok(
      await adminB<{ projectTransfer: { idMappings: Array<{ sourceId: string; targetId: string }> } }>(MAPPINGS, {
        id: imported.id,
        kind: 'projects',
      }),
    ).projectTransfer.idMappings;
    expect(project).toEqual([{ sourceId: projectId, targetId: imported.projectId }]);
    const note = ok(
      await adminB<{ note: { title: string; contentText: string } }>(
        `query($id: ID!) { note(id: $id) { title contentText } }`,
        { id: notesMap[0]!.targetId },
      ),
    ).note;
    expect(['Interview one', 'Interview two']).toContain(note.title);

    // The insight cites the imported copy of the highlight it cited before.
    type Mapping = { sourceId: string; targetId: string };
    const mapOf = async (kind: string) =>
      ok(await adminB<{ projectTransfer: { idMappings: Mapping[] } }>(MAPPINGS, { id: imported.id, kind }))
        .projectTransfer.idMappings;
    const [insightMap] = await mapOf('insights');
    const newHighlightId = (await mapOf('highlights')).find((m) => m.sourceId === citedId)?.targetId;
    expect(newHighlightId).toBeDefined();
    const cited = ok(
      await adminB<{ insight: { highlights: Array<{ id: string; text: string; note: { title: string } | null }> } }>(
        `query($id: ID!) { insight(id: $id) { highlights { id text note { title } } } }`,
        {
          id: insightMap!.targetId,
        },
      ),
    ).insight.highlights;
    expect(cited).toEqual([{ id: newHighlightId, text: 'The setup was confusing', note: { title: 'Interview one' } }]);

    const again = ok(
      await adminB<{ exportProject: Transfer }>(EXPORT, { projectId: imported.projectId }),
    ).exportProject;
    const reexported = await waitFor(adminB, again.id);
    expect(reexported.status).toBe('COMPLETED');
    const first = await normalized(await unpack(a.ws.admin.accessToken, a.ws.id, exported));
    const second = await normalized(await unpack(a.ws.admin.accessToken, b.id, reexported));
    expect(second).toEqual(first);
    expect(first[EXPORT_FILES.notes]).toHaveLength(2);
    expect(first[EXPORT_FILES.tags]).toHaveLength(3);
    expect(first[EXPORT_FILES.fields]).toHaveLength(4);
    expect(first[EXPORT_FILES.projectViews]).toHaveLength(1);
    const citedAgain = (
      await readFile(join(await unpack(a.ws.admin.accessToken, b.id, reexported), EXPORT_FILES.insights), 'utf8')
    )
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(citedAgain[0].citedHighlightIds).toEqual([newHighlightId]);
  });

  it('names the imported project as the importer chose, and refuses a title over 200 characters naming the field', async () => {
    const started = ok(
      await adminB<{ importProject: Transfer }>(IMPORT, {
        input: { exportId: exported.id, title: '  Onboarding study (imported)  ' },
      }),
    ).importProject;
    const done = await waitFor(adminB, started.id);
    expect(done.status).toBe('COMPLETED');
    expect(done.projectTitle).toBe('Onboarding study (imported)');
    const { project } = ok(
      await adminB<{ project: { title: string } }>('query($id: ID!) { project(id: $id) { title } }', {
        id: done.projectId,
      }),
    );
    expect(project.title).toBe('Onboarding study (imported)');

    const long = failure(await adminB(IMPORT, { input: { exportId: exported.id, title: 'x'.repeat(201) } }));
    expect(long.extensions?.errorCode).toBe('BAD_USER_INPUT');
    expect(long.extensions?.field).toBe('input.title');
    expect(long.message).toContain('200');
    const blank = failure(await adminB(IMPORT, { input: { exportId: exported.id, title: '   ' } }));
    expect(blank.extensions?.errorCode).toBe('BAD_USER_INPUT');
  });

  it('notifies the requester when a transfer completes', async () => {
    const notes = ok(
      await a.admin<{ notifications: Array<{ type: string; payload: { transferId: string } }> }>(NOTIFICATIONS),
    ).notifications;
    expect(
      notes.filter((n) => n.type === 'project_export_completed' && n.payload.transferId === exported.id),
    ).toHaveLength(1);
    const inB = ok(
      await adminB<{ notifications: Array<{ type: string; payload: { transferId: string } }> }>(NOTIFICATIONS),
    ).notifications;
    expect(
      inB.filter((n) => n.type === 'project_import_completed' && n.payload.transferId === imported.id),
    ).toHaveLength(1);
  });

  it('does nothing when a finished job is delivered again', async () => {
    const projects = await projectCount(adminB);
    const queue = server.fieldbook.jobs.queue;
    await queue.send(IMPORT_QUEUE, { transferId: imported.id, workspaceId: b.id, userId: a.ws.admin.user.id });
    await queue.send(EXPORT_QUEUE, { transferId: exported.id, workspaceId: a.ws.id, userId: a.ws.admin.user.id });
    await new Promise((r) => setTimeout(r, 2500));
    expect(await projectCount(adminB)).toBe(projects);
    const notes = ok(
      await a.admin<{ notifications: Array<{ type: string; payload: { transferId: string } }> }>(NOTIFICATIONS),
    ).notifications;
    expect(
      notes.filter((n) => n.payload.transferId === exported.id || n.payload.transferId === imported.id),
    ).toHaveLength(2);
    expect(ok(await adminB<{ projectTransfer: Transfer }>(GET, { id: imported.id })).projectTransfer.status).toBe(
      'COMPLETED',
    );
  });

  it('fails a corrupted archive without creating anything, and says why', async () => {
    const dir = await unpack(a.ws.admin.accessToken, a.ws.id, exported);
    const notes = (await readFile(join(dir, EXPORT_FILES.notes), 'utf8')).split('\n');
    notes[1] = `${notes[1]!.slice(0, 40)}`; // the second note cut short
    await writeFile(join(dir, EXPORT_FILES.notes), notes.join('\n'));
    const names = [MANIFEST_FILE, ...Object.values(EXPORT_FILES)];
    const archive = join(scratch, 'corrupted.tar');
    await writeTar(
      archive,
      names.map((name) => ({ name, path: join(dir, name) })),
    );

    const count = async (query: string, key: string) =>
      (ok(await adminB<Record<string, unknown[]>>(query)) as Record<string, unknown[]>)[key]!.length;
    const before = {
      projects: await projectCount(adminB),
      boards: await count('{ tagBoards { id } }', 'tagBoards'),
      fields: await count('{ fieldSet(objectType: WORKSPACE) { id } }', 'fieldSet'),
      people: ok(await adminB<{ people: { nodes: unknown[] } }>('{ people { nodes { id } } }')).people.nodes.length,
      folders: await count('{ folders { id } }', 'folders'),
    };

    const res = await fetch(`${server.url}/api/imports`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${a.ws.admin.accessToken}`,
        'x-fieldbook-workspace': b.id,
        'content-type': 'application/x-tar',
      },
      body: await readFile(archive),
    });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const failed = await waitFor(adminB, id);
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toBe(
      `${EXPORT_FILES.notes} line 2 is not valid JSON, so the archive is damaged. Nothing was imported.`,
    );
    expect(failed.projectId).toBeNull();

    expect(await projectCount(adminB)).toBe(before.projects);
    expect(await count('{ tagBoards { id } }', 'tagBoards')).toBe(before.boards);
    expect(await count('{ fieldSet(objectType: WORKSPACE) { id } }', 'fieldSet')).toBe(before.fields);
    expect(ok(await adminB<{ people: { nodes: unknown[] } }>('{ people { nodes { id } } }')).people.nodes.length).toBe(
      before.people,
    );
    expect(await count('{ folders { id } }', 'folders')).toBe(before.folders);
    const mapped = ok(await adminB<{ projectTransfer: { idMappings: unknown[] } }>(MAPPINGS, { id, kind: 'notes' }))
      .projectTransfer.idMappings;
    expect(mapped).toEqual([]);

    const inB = ok(
      await adminB<{ notifications: Array<{ type: string; payload: { transferId: string; error?: string } }> }>(
        NOTIFICATIONS,
      ),
    ).notifications;
    expect(inB.find((n) => n.payload.transferId === id)).toMatchObject({
      type: 'project_import_failed',
      payload: { error: failed.error },
    });
  });

  it('keeps 750 options of a select field on import, and the rest of each value', async () => {
    const dir = await unpack(a.ws.admin.accessToken, a.ws.id, exported);
    const fieldsFile = join(dir, EXPORT_FILES.fields);
    const fields = (await readFile(fieldsFile, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; label: string; options: Array<{ id: string; label: string }> });
    const segment = fields.find((f) => f.label === 'Segment')!;
    const enterprise = segment.options.find((o) => o.label === 'Enterprise')!.id;
    // 760 more than the two it has: the first 748 of them fit, the last 12 do not.
    segment.options.push(
      ...Array.from({ length: 760 }, (_, i) => ({
        id: `extra-${i}`,
        label: `Extra ${i}`,
        displayLabel: null,
        color: '#3e63dd',
        rank: 10 + i,
      })),
    );
    await writeFile(fieldsFile, fields.map((f) => JSON.stringify(f)).join('\n'));
    const notesFile = join(dir, EXPORT_FILES.notes);
    const notes = (await readFile(notesFile, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { title: string; fieldDatum: Array<{ fieldId: string; value: unknown }> });
    const n1 = notes.find((n) => n.title === 'Interview one')!;
    n1.fieldDatum.find((d) => d.fieldId === segment.id)!.value = [enterprise, 'extra-759', 'extra-3'];
    await writeFile(notesFile, notes.map((n) => JSON.stringify(n)).join('\n'));
    const archive = join(scratch, 'many-options.tar');
    await writeTar(
      archive,
      [MANIFEST_FILE, ...Object.values(EXPORT_FILES)].map((name) => ({ name, path: join(dir, name) })),
    );

    const res = await fetch(`${server.url}/api/imports`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${a.ws.admin.accessToken}`,
        'x-fieldbook-workspace': b.id,
        'content-type': 'application/x-tar',
      },
      body: await readFile(archive),
    });
    expect(res.status).toBe(202);
    const done = await waitFor(adminB, ((await res.json()) as { id: string }).id);
    expect(done.error).toBeNull();
    expect(done.status).toBe('COMPLETED');
    type Field = { id: string; label: string; options: Array<{ id: string; label: string }> };
    const imported = ok(
      await adminB<{ fieldSet: Field[] }>(
        'query($p: ID) { fieldSet(objectType: NOTE, projectId: $p) { id label options { id label } } }',
        { p: done.projectId },
      ),
    ).fieldSet.find((f) => f.label === 'Segment')!;
    expect(imported.options).toHaveLength(750);
    expect(imported.options.some((o) => o.label === 'Extra 747')).toBe(true);
    expect(imported.options.some((o) => o.label === 'Extra 748')).toBe(false);
    const noteMap = ok(
      await adminB<{ projectTransfer: { idMappings: Array<{ sourceId: string; targetId: string }> } }>(MAPPINGS, {
        id: done.id,
        kind: 'notes',
      }),
    ).projectTransfer.idMappings;
    const values = await Promise.all(
      noteMap.map(
        async (m) =>
          ok(
            await adminB<{ fieldValues: Array<{ value: string[]; field: { id: string } }> }>(
              'query($o: ID!) { fieldValues(objectType: NOTE, objectId: $o) { value field { id } } }',
              { o: m.targetId },
            ),
          ).fieldValues,
      ),
    );
    const segmentValue = values.flat().find((v) => v.field.id === imported.id)!.value;
    const labelOf = new Map(imported.options.map((o) => [o.id, o.label]));
    expect(segmentValue.map((id) => labelOf.get(id))).toEqual(['Enterprise', 'Extra 3']);
  });

  it('fails an upload that is not an export archive', async () => {
    const res = await fetch(`${server.url}/api/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.ws.admin.accessToken}`, 'x-fieldbook-workspace': b.id },
      body: Buffer.alloc(2048, 7),
    });
    expect(res.status).toBe(202);
    const failed = await waitFor(adminB, ((await res.json()) as { id: string }).id);
    expect(failed).toMatchObject({ status: 'FAILED' });
    expect(failed.error).toMatch(/not a tar archive/);
  });

  it('refuses uploads from viewers and from people signed out', async () => {
    const asViewer = await fetch(`${server.url}/api/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.viewer.accessToken}`, 'x-fieldbook-workspace': a.ws.id },
      body: 'x',
    });
    expect(asViewer.status).toBe(403);
    const anonymous = await fetch(`${server.url}/api/imports`, {
      method: 'POST',
      headers: { 'x-fieldbook-workspace': a.ws.id },
      body: 'x',
    });
    expect(anonymous.status).toBe(401);
  });

  it('imports by reference only exports the person can read', async () => {
    const outsider = await createWorkspaceWithAdmin(server, mail);
    const res = await gqlAs(
      server,
      outsider.admin.accessToken,
      outsider.id,
    )(IMPORT, { input: { exportId: exported.id } });
    expect(failure(res).extensions?.errorCode).toBe('NOT_FOUND');
  });
});
