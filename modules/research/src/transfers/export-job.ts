import { mkdir, open, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { once, type JobDefinition, type ModuleContext } from '@fieldbook/core';
import {
  EXPORT_FILES,
  EXPORT_FORMAT_VERSION,
  MANIFEST_FILE,
  fieldSetId,
  line,
  sectionFlags,
  type CommentRecord,
  type DocumentRecord,
  type ExportFileKind,
  type HighlightRecord,
  type Manifest,
  type PersonRecord,
  type UploadStatus,
} from './format.ts';
import {
  ARCHIVE_NAME,
  EXPORT_QUEUE,
  exportDir,
  notifyRequester,
  patchTransfer,
  type TransferJob,
  type TransferRow,
} from './records.ts';
import { inTenant, runTransferJob, TransferError, TRANSFER_RETRY_LIMIT } from './run.ts';
import { writeTar } from './tar.ts';
import { EmailsOfUsers } from './users.ts';

const BATCH = 100;
const iso = (d: Date | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

/** One jsonl file being written, a batch of lines at a time. */
class JsonlFile {
  records = 0;
  status: UploadStatus = 'UPLOADING';
  private constructor(
    readonly name: string,
    readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  static async open(dir: string, name: string): Promise<JsonlFile> {
    const path = join(dir, name);
    return new JsonlFile(name, path, await open(path, 'w'));
  }

  async write(records: readonly unknown[]): Promise<void> {
    if (!records.length) return;
    await this.handle.write(records.map(line).join(''));
    this.records += records.length;
  }

  async close(): Promise<void> {
    await this.handle.close();
    this.status = 'COMPLETE';
  }
}

interface ExportState {
  trx: Knex.Transaction;
  workspaceId: string;
  projectId: string;
  users: EmailsOfUsers;
  files: Record<ExportFileKind, JsonlFile>;
  /** Field ids of person fields, whose values are member ids to name by email. */
  personFields: Set<string>;
  people: Set<string>;
  counts: Record<string, number>;
}

const count = (state: ExportState, key: string, n = 1) => {
  state.counts[key] = (state.counts[key] ?? 0) + n;
};

function manifestOf(title: string, projectId: string, categoryIds: string[], files: readonly JsonlFile[]): Manifest {
  return {
    formatVersion: EXPORT_FORMAT_VERSION,
    exportedAt: new Date().toISOString(),
    files: files.map((f) => ({ filepath: f.name, uploadStatus: f.status, records: f.records })),
    config: { title, projectCategoryIds: categoryIds, projectIds: [projectId] },
  };
}

interface PersonRow {
  id: string;
  name: string;
  email: string | null;
  company: string | null;
  title: string | null;
  avatar_url: string | null;
}
const personRecord = (p: PersonRow): PersonRecord => ({
  id: p.id,
  name: p.name,
  email: p.email,
  company: p.company,
  title: p.title,
  avatarUrl: p.avatar_url,
});

/** The folders from the root down to the project's own. */
async function folderChain(
  trx: Knex.Transaction,
  workspaceId: string,
  categoryId: string | null,
): Promise<Array<{ id: string; title: string; parent_id: string | null }>> {
  const chain: Array<{ id: string; title: string; parent_id: string | null }> = [];
  const seen = new Set<string>();
  let next = categoryId;
  while (next && !seen.has(next)) {
    seen.add(next);
    const folder = (await trx('project_categories')
      .where({ id: next, workspace_id: workspaceId })
      .whereNull('deleted_at')
      .first('id', 'title', 'parent_id')) as { id: string; title: string; parent_id: string | null } | undefined;
    if (!folder) break;
    chain.unshift(folder);
    next = folder.parent_id;
  }
  return chain;
}

/** Project boards whole; workspace boards with only the tags (and their groups) this project uses. */
async function writeTags(state: ExportState): Promise<void> {
  const { trx, workspaceId, projectId } = state;
  const used = trx('highlight_tags as ht')
    .join('highlights as h', 'h.id', 'ht.highlight_id')
    .where({ 'h.project_id': projectId, 'h.workspace_id': workspaceId })
    .whereNull('h.deleted_at')
    .distinct('ht.tag_id');
  const tags = (await trx('tags as t')
    .join('tag_boards as b', 'b.id', 't.board_id')
    .where('t.workspace_id', workspaceId)
    .where((w) => w.where('b.project_id', projectId).orWhere((u) => u.whereNull('b.project_id').whereIn('t.id', used)))
    .orderBy([{ column: 't.rank' }, { column: 't.title' }])
    .select('t.*')) as Array<{
    id: string;
    board_id: string;
    group_id: string | null;
    title: string;
    color: string;
    description: string | null;
    locked: boolean;
    rank: number;
  }>;
  const boardIds = new Set(tags.map((t) => t.board_id));
  const boards = (await trx('tag_boards')
    .where({ workspace_id: workspaceId })
    .where((w) => w.where('project_id', projectId).orWhereIn('id', [...boardIds]))
    .orderBy([{ column: 'rank' }, { column: 'title' }])) as Array<{
    id: string;
    project_id: string | null;
    title: string;
    description: string | null;
    rank: number;
  }>;
  const usedGroups = new Set(tags.map((t) => t.group_id).filter(Boolean));
  const projectBoards = boards.filter((b) => b.project_id).map((b) => b.id);
  const groups = (await trx('tag_groups')
    .where({ workspace_id: workspaceId })
    .where((w) => w.whereIn('board_id', projectBoards).orWhereIn('id', [...usedGroups] as string[]))
    .orderBy([{ column: 'rank' }, { column: 'title' }])) as Array<{
    id: string;
    board_id: string;
    title: string;
    color: string | null;
    description: string | null;
    rank: number;
  }>;

  await state.files.tagBoards.write(
    boards.map((b) => ({
      id: b.id,
      rank: b.rank,
      title: b.title,
      description: b.description,
      scope: b.project_id ? 'PROJECT' : 'WORKSPACE',
    })),
  );
  await state.files.tagGroups.write(
    groups.map((g) => ({
      id: g.id,
      tagBoardId: g.board_id,
      color: g.color,
      rank: g.rank,
      title: g.title,
      description: g.description,
    })),
  );
  await state.files.tags.write(
    tags.map((t) => ({
      id: t.id,
      tagBoardId: t.board_id,
      tagGroupId: t.group_id,
      color: t.color,
      rank: t.rank,
      title: t.title,
      locked: t.locked,
      description: t.description,
      role: null,
    })),
  );
  count(state, 'tagBoards', boards.length);
  count(state, 'tagGroups', groups.length);
  count(state, 'tags', tags.length);
}

/** The project's own note and insight fields, and the workspace fields its items have values for. */
async function writeFields(state: ExportState): Promise<void> {
  const { trx, workspaceId, projectId } = state;
  const usedBy = (table: 'notes' | 'insights', objectType: string) =>
    trx('field_values as v')
      .join(`${table} as o`, 'o.id', 'v.object_id')
      .where({ 'v.object_type': objectType, 'o.project_id': projectId, 'v.workspace_id': workspaceId })
      .whereNull('o.deleted_at')
      .distinct('v.field_id');
  const fields = (await trx('fields')
    .where({ workspace_id: workspaceId })
    .whereIn('object_type', ['NOTE', 'INSIGHT', 'WORKSPACE'])
    .where((w) =>
      w
        .where('project_id', projectId)
        .orWhere((u) =>
          u
            .whereNull('project_id')
            .where((v) => v.whereIn('id', usedBy('notes', 'NOTE')).orWhereIn('id', usedBy('insights', 'INSIGHT'))),
        ),
    )
    .orderBy([{ column: 'rank' }, { column: 'label' }])) as Array<{
    id: string;
    project_id: string | null;
    object_type: string;
    type: string;
    label: string;
    config: unknown;
    rank: number;
  }>;
  const options = fields.length
    ? ((await trx('field_options')
        .whereIn(
          'field_id',
          fields.map((f) => f.id),
        )
        .orderBy([{ column: 'rank' }, { column: 'label' }])) as Array<{
        id: string;
        field_id: string;
        label: string;
        display_label: string | null;
        color: string;
        rank: number;
      }>)
    : [];
  const sets = new Map<string, { id: string; objectType: string; scope: string }>();
  for (const f of fields) {
    const id = fieldSetId(f.object_type, f.project_id);
    sets.set(id, { id, objectType: f.object_type, scope: f.project_id ? 'PROJECT' : 'WORKSPACE' });
    if (f.type === 'PERSON') state.personFields.add(f.id);
  }
  await state.files.fieldSets.write([...sets.values()]);
  await state.files.fields.write(
    fields.map((f) => ({
      id: f.id,
      fieldSetId: fieldSetId(f.object_type, f.project_id),
      label: f.label,
      options: options
        .filter((o) => o.field_id === f.id)
        .map((o) => ({ id: o.id, label: o.label, displayLabel: o.display_label, color: o.color, rank: o.rank })),
      rank: f.rank,
      type: f.type,
      config: f.config,
    })),
  );
  count(state, 'fields', fields.length);
}

interface DocRow {
  id: string;
  title: string;
  content: unknown;
  archived: boolean;
  locked: boolean;
  rank: number;
  published_at?: Date | null;
  summary?: unknown;
  created_by: string | null;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Highlights, tags, people, values and comments of one batch of notes or insights. */
async function batchDetails(state: ExportState, kind: 'notes' | 'insights', rows: readonly DocRow[]) {
  const { trx } = state;
  const ids = rows.map((r) => r.id);
  const column = kind === 'notes' ? 'note_id' : 'insight_id';
  const highlights = (await trx('highlights')
    .whereIn(column, ids)
    // A note's highlight that an insight cites belongs to the note's record; the insight keeps only a citation.
    .modify((q) => (kind === 'insights' ? q.whereNull('note_id') : q))
    .whereNull('deleted_at')
    .orderBy([{ column: 'start_offset' }, { column: 'end_offset' }, { column: 'created_at' }])) as Array<{
    id: string;
    note_id: string | null;
    insight_id: string | null;
    text: string;
    start_offset: number;
    end_offset: number;
    color: string | null;
    created_by: string | null;
    created_at: Date;
  }>;
  // Only highlights of this project's live notes travel with the export, so only those citations can be restored.
  const citations =
    kind === 'insights'
      ? ((await trx('highlights as h')
          .join('notes as n', 'n.id', 'h.note_id')
          .whereIn('h.insight_id', ids)
          .where({ 'n.project_id': state.projectId })
          .whereNull('h.deleted_at')
          .whereNull('n.deleted_at')
          .orderBy([{ column: 'h.created_at' }, { column: 'h.id' }])
          .select('h.id', 'h.insight_id')) as Array<{ id: string; insight_id: string }>)
      : [];
  const hIds = highlights.map((h) => h.id);
  const taggings = hIds.length
    ? ((await trx('highlight_tags')
        .whereIn('highlight_id', hIds)
        .orderBy(['created_at', 'tag_id'])
        .select('highlight_id', 'tag_id')) as Array<{ highlight_id: string; tag_id: string }>)
    : [];
  const hPeople = hIds.length
    ? ((await trx('highlight_people as l')
        .join('people as p', 'p.id', 'l.person_id')
        .whereIn('l.highlight_id', hIds)
        .whereNull('p.deleted_at')
        .orderBy(['p.name', 'p.id'])
        .select('l.highlight_id', 'p.*')) as Array<PersonRow & { highlight_id: string }>)
    : [];
  const nPeople =
    kind === 'notes'
      ? ((await trx('note_people as l')
          .join('people as p', 'p.id', 'l.person_id')
          .whereIn('l.note_id', ids)
          .whereNull('p.deleted_at')
          .orderBy(['p.name', 'p.id'])
          .select('l.note_id', 'p.*')) as Array<PersonRow & { note_id: string }>)
      : [];
  const values = (await trx('field_values as v')
    .join('fields as f', 'f.id', 'v.field_id')
    .where({ 'v.object_type': kind === 'notes' ? 'NOTE' : 'INSIGHT' })
    .whereIn('v.object_id', ids)
    // An order that survives an import, which gives fields new ids and workspace fields new ranks.
    .orderBy([{ column: 'f.object_type' }, { column: 'f.label' }, { column: 'f.id' }])
    .select('v.field_id', 'v.object_id', 'v.value')) as Array<{ field_id: string; object_id: string; value: unknown }>;
  const comments = (await trx('comments').whereIn(column, ids).orderBy(['created_at', 'id'])) as Array<{
    id: string;
    note_id: string | null;
    insight_id: string | null;
    body: string;
    mentioned_user_ids: string[];
    created_by: string | null;
    created_at: Date;
    edited_at: Date | null;
  }>;
  const personValueIds = values
    .filter((v) => state.personFields.has(v.field_id) && Array.isArray(v.value))
    .flatMap((v) => v.value as string[]);
  await state.users.load([
    ...rows.flatMap((r) => [r.created_by, r.updated_by]),
    ...highlights.map((h) => h.created_by),
    ...comments.flatMap((c) => [c.created_by, ...c.mentioned_user_ids]),
    ...personValueIds,
  ]);

  const highlightsOf = (id: string): HighlightRecord[] =>
    highlights
      .filter((h) => (h.note_id ?? h.insight_id) === id)
      .map((h) => ({
        id: h.id,
        text: h.text,
        startOffset: h.start_offset,
        endOffset: h.end_offset,
        color: h.color,
        tagIds: taggings.filter((t) => t.highlight_id === h.id).map((t) => t.tag_id),
        people: hPeople.filter((p) => p.highlight_id === h.id).map(personRecord),
        createdBy: state.users.email(h.created_by),
        createdAt: iso(h.created_at)!,
      }));
  const commentsOf = (id: string): CommentRecord[] =>
    comments
      .filter((c) => (c.note_id ?? c.insight_id) === id)
      .map((c) => ({
        id: c.id,
        body: c.body,
        mentions: c.mentioned_user_ids
          .map((userId) => ({ userId, email: state.users.email(userId) ?? '' }))
          .filter((m) => m.email),
        createdBy: state.users.email(c.created_by),
        createdAt: iso(c.created_at)!,
        editedAt: iso(c.edited_at),
      }));
  const valuesOf = (id: string) =>
    values
      .filter((v) => v.object_id === id)
      .map((v) => ({
        fieldId: v.field_id,
        value:
          state.personFields.has(v.field_id) && Array.isArray(v.value)
            ? (v.value as string[]).map((u) => state.users.email(u)).filter(Boolean)
            : v.value,
      }));
  count(state, 'highlights', highlights.length);
  count(state, 'comments', comments.length);
  for (const p of [...hPeople, ...nPeople]) state.people.add(p.id);
  return {
    highlightsOf,
    commentsOf,
    valuesOf,
    peopleOf: (id: string) => nPeople.filter((p) => p.note_id === id).map(personRecord),
    citedBy: (id: string) => citations.filter((c) => c.insight_id === id).map((c) => c.id),
  };
}

function documentRecord(
  state: ExportState,
  row: DocRow,
  details: Awaited<ReturnType<typeof batchDetails>>,
): DocumentRecord {
  return {
    id: row.id,
    title: row.title,
    locked: row.locked,
    richText: row.content ?? null,
    fieldDatum: details.valuesOf(row.id),
    fileId: null,
    published: Boolean(row.published_at),
    publishedAt: iso(row.published_at),
    archived: row.archived,
    rank: row.rank,
    highlights: details.highlightsOf(row.id),
    comments: details.commentsOf(row.id),
    createdBy: state.users.email(row.created_by),
    updatedBy: state.users.email(row.updated_by),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

/** Notes or insights, a batch at a time in list order (keyset on rank and id). */
async function writeDocuments(
  state: ExportState,
  kind: 'notes' | 'insights',
  onBatch: (n: number) => Promise<void>,
): Promise<void> {
  let after: { rank: number; id: string } | null = null;
  for (;;) {
    const q = state
      .trx(kind)
      .where({ workspace_id: state.workspaceId, project_id: state.projectId })
      .whereNull('deleted_at')
      .orderBy(['rank', 'id'])
      .limit(BATCH);
    if (after) q.whereRaw('(rank, id) > (?, ?)', [after.rank, after.id]);
    const rows = (await q) as DocRow[];
    if (!rows.length) return;
    const details = await batchDetails(state, kind, rows);
    const records = rows.map((row) => {
      const base = documentRecord(state, row, details);
      return kind === 'notes'
        ? {
            ...base,
            published: false,
            publishedAt: null,
            summaryContent: null,
            summaryFramework: null,
            summaryLanguage: null,
            people: details.peopleOf(row.id),
          }
        : { ...base, summary: row.summary ?? null, citedHighlightIds: details.citedBy(row.id) };
    });
    await (kind === 'notes' ? state.files.notes : state.files.insights).write(records);
    count(state, kind, rows.length);
    await onBatch(rows.length);
    const last = rows[rows.length - 1]!;
    after = { rank: last.rank, id: last.id };
  }
}

/**
 * Writes the export of one project. Everything is read in one repeatable-read transaction, so
 * the files agree with each other even while people keep editing, and a batch at a time, so a
 * large project never sits in memory whole.
 */
async function writeExport(
  ctx: ModuleContext,
  job: TransferJob,
  transfer: TransferRow,
  dir: string,
): Promise<{ size: number; counts: Record<string, number> }> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const projectId = transfer.project_id;
  if (!projectId) throw new TransferError('The project was deleted before it could be exported.');

  return inTenant(ctx.db.app, job, { snapshot: true }, async (trx) => {
    const project = (await trx('projects')
      .where({ id: projectId, workspace_id: job.workspaceId })
      .whereNull('deleted_at')
      .first()) as
      | {
          id: string;
          title: string;
          status: string;
          color: string | null;
          icon: string | null;
          readme: unknown;
          enabled_sections: string[] | null;
          category_id: string | null;
          rank: number;
          permissions: { groups?: Record<string, string>; users?: Record<string, string> };
        }
      | undefined;
    if (!project) throw new TransferError('The project was deleted before it could be exported.');

    const files = {} as Record<ExportFileKind, JsonlFile>;
    for (const kind of Object.keys(EXPORT_FILES) as ExportFileKind[])
      files[kind] = await JsonlFile.open(dir, EXPORT_FILES[kind]);
    const state: ExportState = {
      trx,
      workspaceId: job.workspaceId,
      projectId,
      users: new EmailsOfUsers(trx),
      files,
      personFields: new Set(),
      people: new Set(),
      counts: {},
    };
    const folders = await folderChain(trx, job.workspaceId, project.category_id);
    const manifest = () =>
      manifestOf(
        project.title,
        project.id,
        folders.map((f) => f.id),
        Object.values(files),
      );
    await writeFile(join(dir, MANIFEST_FILE), JSON.stringify(manifest(), null, 2));

    const grants = project.permissions?.users ?? {};
    await state.users.load(Object.keys(grants));
    await files.project.write([
      {
        id: project.id,
        title: project.title,
        status: project.status,
        color: project.color,
        icon: project.icon,
        summary: null,
        readme: project.readme ?? null,
        ...sectionFlags(project.enabled_sections),
        transcriptionVocabulary: [],
        projectCategoryId: project.category_id && folders.length ? project.category_id : null,
        defaultFramework: null,
        summaryLanguage: null,
        transcriptionLanguage: null,
        recruitEnabled: false,
        access: {
          // Only the workspace-wide grants travel: user groups are the old workspace's own.
          groups: Object.fromEntries(
            Object.entries(project.permissions?.groups ?? {}).filter(([k]) =>
              ['markup', 'public', 'playback'].includes(k),
            ),
          ),
          users: Object.entries(grants)
            .map(([userId, level]) => ({ email: state.users.email(userId), level }))
            .filter((g) => g.email),
        },
      },
    ]);
    await files.flatFilesystemStructure.write(
      folders.map((f) => ({
        projectCategoryId: f.id,
        name: f.title,
        parentId: f.parent_id,
        projects: f.id === project.category_id ? [project.id] : [],
      })),
    );
    count(state, 'projectCategories', folders.length);
    await writeTags(state);
    await writeFields(state);
    const views = (await trx('project_views')
      .where({ workspace_id: job.workspaceId, project_id: projectId })
      .orderBy(['rank', 'title', 'id'])) as Array<{
      id: string;
      layout: string;
      object_type: string;
      rank: number;
      title: string;
      view_data: unknown;
    }>;
    await files.projectViews.write(
      views.map((v) => ({
        id: v.id,
        docId: null,
        layout: v.layout,
        objectType: v.object_type,
        rank: v.rank,
        title: v.title,
        viewData: v.view_data,
      })),
    );
    count(state, 'projectViews', views.length);

    const total = Number(
      (
        await trx.raw(
          `select (select count(*) from notes where project_id = :p and deleted_at is null) + (select count(*) from insights where project_id = :p and deleted_at is null) as n`,
          { p: projectId },
        )
      ).rows[0].n,
    );
    let done = 0;
    const onBatch = async (n: number) => {
      done += n;
      await patchTransfer(ctx.db.app, job, {
        progress: Math.min(95, 5 + Math.floor((90 * done) / Math.max(total, 1))),
      });
    };
    await writeDocuments(state, 'notes', onBatch);
    await writeDocuments(state, 'insights', onBatch);
    // Kinds this product does not hold (files, views, questions) are written empty.
    for (const file of Object.values(files)) await file.close();
    state.counts.people = state.people.size;
    await writeFile(join(dir, MANIFEST_FILE), JSON.stringify(manifest(), null, 2));

    const entries = [MANIFEST_FILE, ...Object.values(EXPORT_FILES)].map((name) => ({ name, path: join(dir, name) }));
    const size = await writeTar(join(dir, ARCHIVE_NAME), entries);
    for (const e of entries) await rm(e.path, { force: true });
    return { size, counts: state.counts };
  });
}

export function exportJob(ctx: ModuleContext): JobDefinition<TransferJob> {
  return {
    queue: EXPORT_QUEUE,
    settings: { retryLimit: TRANSFER_RETRY_LIMIT, retryDelaySeconds: 5, expireInSeconds: 60 * 60 },
    handler: (job) =>
      runTransferJob(ctx, job, 'EXPORT', async (transfer) => {
        const dir = exportDir(ctx.config.dataDir, job.data.workspaceId, transfer.id);
        const { size, counts } = await writeExport(ctx, job.data, transfer, dir);
        const archive = join(dir, ARCHIVE_NAME);
        await stat(archive);
        await inTenant(ctx.db.app, job.data, {}, async (trx) => {
          // Finishing and notifying commit together, once: a rerun finds the record and stops.
          await once(trx, `project-export:${transfer.id}`, EXPORT_QUEUE, async () => {
            const [row] = (await trx('project_transfers')
              .where({ id: transfer.id })
              .update({
                status: 'COMPLETED',
                progress: 100,
                error: null,
                file_path: archive,
                file_size: size,
                counts: JSON.stringify(counts),
                updated_at: trx.fn.now(),
                completed_at: trx.fn.now(),
              })
              .returning('*')) as TransferRow[];
            await notifyRequester(trx, row!, true);
          });
        });
      }),
  };
}
