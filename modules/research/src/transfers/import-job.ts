import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Knex } from 'knex';
import type { z } from 'zod';
import { once, type JobDefinition, type ModuleContext } from '@fieldbook/core';
import { FIELD_LIMITS } from '../fields/rules/field-types.ts';
import { plainText, type RichTextNode } from '../notes/rich-text.ts';
import { assertProjectRoom } from '../projects/projects.ts';
import { rankForNewItem } from '../ranks/reorder.ts';
import {
  ARCHIVE_NAMES,
  EXPORT_FILES,
  ID_MAPPING_KINDS,
  MANIFEST_FILE,
  fieldSetId,
  sectionsFromFlags,
  type IdMappingKind,
} from './format.ts';
import {
  describeIssue,
  fieldSchema,
  fieldSetSchema,
  folderSchema,
  insightSchema,
  manifestSchema,
  noteSchema,
  projectSchema,
  projectViewSchema,
  tagBoardSchema,
  tagGroupSchema,
  tagSchema,
  type ImportedDocument,
  type ImportedPerson,
} from './import-schemas.ts';
import {
  IMPORT_QUEUE,
  importDir,
  isTransferArchive,
  notifyRequester,
  patchTransfer,
  recordIdMappings,
  type TransferJob,
  type TransferRow,
} from './records.ts';
import { remapMentions } from './remap.ts';
import { inTenant, runTransferJob, TransferError, TRANSFER_RETRY_LIMIT } from './run.ts';
import { extractTar, TarFormatError } from './tar.ts';
import { membersByEmail } from './users.ts';

const BATCH = 100;

interface ImportState {
  trx: Knex.Transaction;
  workspaceId: string;
  importerId: string;
  projectId: string;
  members: Map<string, string>;
  ids: Record<IdMappingKind, Map<string, string>>;
  /** Source field id to its type, for values. */
  fieldTypes: Map<string, string>;
  /** Source option ids left out because their field already had its 750 options (000 §5). */
  droppedOptions: Set<string>;
  /** Source user ids (in comment mentions) to members here. */
  mentionIds: Map<string, string | null>;
  counts: Record<string, number>;
}

const count = (state: ImportState, key: string, n = 1) => {
  state.counts[key] = (state.counts[key] ?? 0) + n;
};
const member = (state: ImportState, email: string | null | undefined): string | null =>
  email ? (state.members.get(email.toLowerCase()) ?? null) : null;

/** Reads a jsonl file a line at a time, validating each record; the line is named on failure. */
async function eachRecord<S extends z.ZodType>(
  dir: string,
  name: string,
  schema: S,
  fn: (record: z.output<S>, lineNo: number) => Promise<void>,
): Promise<void> {
  const lines = createInterface({ input: createReadStream(join(dir, name), 'utf8'), crlfDelay: Infinity });
  let lineNo = 0;
  for await (const raw of lines) {
    lineNo++;
    if (!raw.trim()) continue;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new TransferError(
        `${name} line ${lineNo} is not valid JSON, so the archive is damaged. Nothing was imported.`,
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new TransferError(`${name} line ${lineNo}: ${describeIssue(parsed.error)}. Nothing was imported.`);
    try {
      await fn(parsed.data, lineNo);
    } catch (error) {
      throw asTransferError(error, `${name} line ${lineNo}`);
    }
  }
}

/** Database refusals of bad data (constraint and data errors) are the archive's fault, not ours. */
function asTransferError(error: unknown, where: string): unknown {
  if (error instanceof TransferError) return error;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  if (code.startsWith('22') || code.startsWith('23')) {
    const detail = (error as { detail?: string; message?: string }).detail ?? (error as Error).message;
    return new TransferError(`${where} could not be imported (${detail}). Nothing was imported.`);
  }
  return error;
}

const missing = (file: string, what: string, id: string) =>
  new TransferError(`${file} refers to ${what} ${id}, which the archive does not hold. Nothing was imported.`);

async function importFolders(state: ImportState, dir: string): Promise<void> {
  const { trx, workspaceId } = state;
  const records: Array<z.output<typeof folderSchema>> = [];
  await eachRecord(dir, EXPORT_FILES.flatFilesystemStructure, folderSchema, async (r) => {
    records.push(r);
  });
  // Root first: a folder is placed once its parent is. Same-named folders at the same place are reused.
  let pending = records;
  while (pending.length) {
    const next = pending.filter(
      (r) =>
        r.parentId &&
        !state.ids.projectCategories.has(r.parentId) &&
        records.some((p) => p.projectCategoryId === r.parentId),
    );
    const ready = pending.filter((r) => !next.includes(r));
    if (!ready.length)
      throw new TransferError(
        `${EXPORT_FILES.flatFilesystemStructure} has folders that contain each other. Nothing was imported.`,
      );
    for (const r of ready) {
      const parent = r.parentId ? (state.ids.projectCategories.get(r.parentId) ?? null) : null;
      const q = trx('project_categories')
        .where({ workspace_id: workspaceId })
        .whereNull('deleted_at')
        .whereRaw('lower(title) = lower(?)', [r.name]);
      if (parent) q.where('parent_id', parent);
      else q.whereNull('parent_id');
      const existing = (await q.first('id')) as { id: string } | undefined;
      let target = existing?.id;
      if (!target) {
        target = randomUUID();
        const rank = await rankForNewItem(trx, {
          table: 'project_categories',
          scope: { workspace_id: workspaceId, parent_id: parent },
        });
        await trx('project_categories').insert({
          id: target,
          workspace_id: workspaceId,
          parent_id: parent,
          title: r.name,
          rank,
          created_by: state.importerId,
        });
        count(state, 'projectCategories');
      }
      state.ids.projectCategories.set(r.projectCategoryId, target);
    }
    pending = next;
  }
}

async function importProjectRecord(
  state: ImportState,
  dir: string,
  isManager: boolean,
  chosenTitle: string | null,
): Promise<string> {
  const { trx, workspaceId } = state;
  let title = '';
  let seen = 0;
  await eachRecord(dir, EXPORT_FILES.project, projectSchema, async (p) => {
    seen++;
    if (seen > 1) throw new TransferError(`${EXPORT_FILES.project} holds more than one project. Nothing was imported.`);
    await assertProjectRoom(trx, workspaceId).catch((error: unknown) => {
      throw new TransferError(error instanceof Error ? `${error.message} Nothing was imported.` : String(error));
    });
    const users: Record<string, string> = {};
    for (const grant of p.access.users) {
      const id = member(state, grant.email);
      if (id) users[id] = grant.level;
    }
    // As with a project created here: whoever imports it may manage who else sees it.
    if (!isManager) users[state.importerId] = 'full';
    // The title the importer chose (the export's own when they kept it), else the archive's.
    title = chosenTitle || p.title;
    await trx('projects').insert({
      id: state.projectId,
      workspace_id: workspaceId,
      title,
      status: p.status,
      color: p.color,
      icon: p.icon,
      readme: p.readme ? JSON.stringify(p.readme) : null,
      enabled_sections: sectionsFromFlags(p as Record<string, unknown>),
      category_id: p.projectCategoryId ? (state.ids.projectCategories.get(p.projectCategoryId) ?? null) : null,
      rank: await rankForNewItem(trx, { table: 'projects', scope: { workspace_id: workspaceId } }),
      permissions: JSON.stringify({ groups: p.access.groups, users }),
      created_by: state.importerId,
      updated_by: state.importerId,
    });
    state.ids.projects.set(p.id, state.projectId);
  });
  if (!seen) throw new TransferError(`${EXPORT_FILES.project} holds no project. Nothing was imported.`);
  return title;
}

/**
 * Project boards are recreated for the new project. Workspace boards join the boards of this
 * workspace with the same title (and their groups and tags the same-titled ones there), so
 * importing twice does not duplicate the workspace's tags.
 */
async function importTags(state: ImportState, dir: string): Promise<void> {
  const { trx, workspaceId } = state;
  const sharedBoards = new Set<string>();
  const findOrInsert = async (
    table: string,
    shared: boolean,
    match: Record<string, string>,
    title: string,
    row: Record<string, unknown>,
  ): Promise<string> => {
    if (shared) {
      const q = trx(table)
        .where({ workspace_id: workspaceId, ...match })
        .whereRaw('lower(title) = lower(?)', [title]);
      // Workspace boards are matched among the workspace's own boards, never a project's.
      if (table === 'tag_boards') q.whereNull('project_id');
      const existing = (await q.first('id')) as { id: string } | undefined;
      if (existing) return existing.id;
    }
    const id = randomUUID();
    await trx(table).insert({ id, workspace_id: workspaceId, title, created_by: state.importerId, ...row });
    count(state, table === 'tag_boards' ? 'tagBoards' : table === 'tag_groups' ? 'tagGroups' : 'tags');
    return id;
  };

  await eachRecord(dir, EXPORT_FILES.tagBoards, tagBoardSchema, async (b) => {
    const shared = b.scope === 'WORKSPACE';
    if (shared) sharedBoards.add(b.id);
    const row = shared
      ? {
          project_id: null,
          description: b.description,
          rank: await rankForNewItem(trx, {
            table: 'tag_boards',
            scope: { workspace_id: workspaceId, project_id: null },
          }),
        }
      : { project_id: state.projectId, description: b.description, rank: b.rank };
    const target = await findOrInsert('tag_boards', shared, {}, b.title, row);
    state.ids.tagBoards.set(b.id, target);
  });
  await eachRecord(dir, EXPORT_FILES.tagGroups, tagGroupSchema, async (g) => {
    const board = state.ids.tagBoards.get(g.tagBoardId);
    if (!board) throw missing(EXPORT_FILES.tagGroups, 'tag board', g.tagBoardId);
    state.ids.tagGroups.set(
      g.id,
      await findOrInsert('tag_groups', sharedBoards.has(g.tagBoardId), { board_id: board }, g.title, {
        board_id: board,
        color: g.color,
        description: g.description,
        rank: g.rank,
      }),
    );
  });
  await eachRecord(dir, EXPORT_FILES.tags, tagSchema, async (t) => {
    const board = state.ids.tagBoards.get(t.tagBoardId);
    if (!board) throw missing(EXPORT_FILES.tags, 'tag board', t.tagBoardId);
    const group = t.tagGroupId ? state.ids.tagGroups.get(t.tagGroupId) : null;
    if (t.tagGroupId && !group) throw missing(EXPORT_FILES.tags, 'tag group', t.tagGroupId);
    state.ids.tags.set(
      t.id,
      await findOrInsert('tags', sharedBoards.has(t.tagBoardId), { board_id: board }, t.title, {
        board_id: board,
        group_id: group ?? null,
        color: t.color,
        description: t.description,
        locked: t.locked,
        rank: t.rank,
      }),
    );
  });
}

/**
 * Project fields are recreated; workspace fields join the workspace's field of the same set,
 * label and type when there is one (options likewise by label).
 */
async function importFields(state: ImportState, dir: string): Promise<void> {
  const { trx, workspaceId } = state;
  const sets = new Map<string, z.output<typeof fieldSetSchema>>();
  await eachRecord(dir, EXPORT_FILES.fieldSets, fieldSetSchema, async (s) => {
    sets.set(s.id, s);
    state.ids.fieldSets.set(s.id, fieldSetId(s.objectType, s.scope === 'PROJECT' ? state.projectId : null));
  });
  await eachRecord(dir, EXPORT_FILES.fields, fieldSchema, async (f) => {
    const set = sets.get(f.fieldSetId);
    if (!set) throw missing(EXPORT_FILES.fields, 'field set', f.fieldSetId);
    const shared = set.scope === 'WORKSPACE';
    if (set.scope === 'PROJECT' && set.objectType === 'WORKSPACE')
      throw new TransferError(
        `${EXPORT_FILES.fields}: workspace fields cannot belong to a project. Nothing was imported.`,
      );
    let target: string | undefined;
    if (shared) {
      const existing = (await trx('fields')
        .where({ workspace_id: workspaceId, object_type: set.objectType, type: f.type })
        .whereNull('project_id')
        .whereRaw('lower(label) = lower(?)', [f.label])
        .first('id')) as { id: string } | undefined;
      target = existing?.id;
    }
    if (!target) {
      target = randomUUID();
      const rank = shared
        ? await rankForNewItem(trx, {
            table: 'fields',
            scope: { workspace_id: workspaceId, object_type: set.objectType, project_id: null },
          })
        : f.rank;
      await trx('fields').insert({
        id: target,
        workspace_id: workspaceId,
        project_id: shared ? null : state.projectId,
        object_type: set.objectType,
        type: f.type,
        label: f.label,
        config: JSON.stringify(f.config),
        rank,
        created_by: state.importerId,
      });
      count(state, 'fields');
    }
    state.ids.fields.set(f.id, target);
    state.fieldTypes.set(f.id, f.type);
    const existingOptions = (await trx('field_options').where({ field_id: target }).select('id', 'label')) as Array<{
      id: string;
      label: string;
    }>;
    for (const o of f.options) {
      const same = existingOptions.find((e) => e.label.toLowerCase() === o.label.toLowerCase());
      let optionId = same?.id;
      if (!optionId) {
        // A field keeps at most 750 options: those past them are left out, and values keep the rest.
        if (existingOptions.length >= FIELD_LIMITS.options) {
          state.droppedOptions.add(o.id);
          continue;
        }
        optionId = randomUUID();
        await trx('field_options').insert({
          id: optionId,
          workspace_id: workspaceId,
          field_id: target,
          label: o.label,
          display_label: o.displayLabel,
          color: o.color,
          rank: o.rank,
        });
        existingOptions.push({ id: optionId, label: o.label });
      }
      state.ids.fieldOptions.set(o.id, optionId);
    }
  });
}

/** Saved views of the project; their canvases are not part of an export. */
async function importViews(state: ImportState, dir: string): Promise<void> {
  await eachRecord(dir, EXPORT_FILES.projectViews, projectViewSchema, async (v) => {
    const id = randomUUID();
    await state.trx('project_views').insert({
      id,
      workspace_id: state.workspaceId,
      project_id: state.projectId,
      title: v.title,
      layout: v.layout,
      object_type: v.objectType,
      rank: v.rank,
      view_data: JSON.stringify(v.viewData),
      created_by: state.importerId,
      updated_by: state.importerId,
    });
    state.ids.projectViews.set(v.id, id);
    count(state, 'projectViews');
  });
}

/** The contact an exported person becomes: the same one each time, matched by email when it has one. */
async function personId(state: ImportState, p: ImportedPerson): Promise<string> {
  const known = state.ids.people.get(p.id);
  if (known) return known;
  const { trx, workspaceId } = state;
  let id: string | undefined;
  if (p.email) {
    id = (
      (await trx('people')
        .where({ workspace_id: workspaceId })
        .whereNull('deleted_at')
        .whereRaw('lower(email) = lower(?)', [p.email])
        .first('id')) as { id: string } | undefined
    )?.id;
  }
  if (!id) {
    id = randomUUID();
    await trx('people').insert({
      id,
      workspace_id: workspaceId,
      name: p.name,
      email: p.email,
      company: p.company,
      title: p.title,
      avatar_url: p.avatarUrl,
      created_by: state.importerId,
      updated_by: state.importerId,
    });
    count(state, 'people');
  }
  state.ids.people.set(p.id, id);
  return id;
}

function fieldValue(state: ImportState, fileName: string, datum: { fieldId: string; value: unknown }): unknown {
  const type = state.fieldTypes.get(datum.fieldId);
  if (type === 'SELECT') {
    if (!Array.isArray(datum.value))
      throw new TransferError(
        `${fileName}: a value of select field ${datum.fieldId} is not a list of options. Nothing was imported.`,
      );
    const ids = (datum.value as string[])
      .filter((o) => !state.droppedOptions.has(o))
      .map((o) => state.ids.fieldOptions.get(o));
    if (ids.some((o) => !o)) throw missing(fileName, 'an option of field', datum.fieldId);
    return ids;
  }
  if (type === 'PERSON') {
    if (!Array.isArray(datum.value))
      throw new TransferError(
        `${fileName}: a value of person field ${datum.fieldId} is not a list of emails. Nothing was imported.`,
      );
    return (datum.value as string[]).map((e) => member(state, e)).filter(Boolean);
  }
  return datum.value;
}

/** One batch of notes or insights with everything hanging off them. */
async function importDocuments(
  state: ImportState,
  kind: 'notes' | 'insights',
  fileName: string,
  docs: ReadonlyArray<{ doc: ImportedDocument; lineNo: number }>,
): Promise<void> {
  const { trx, workspaceId, projectId } = state;
  const objectType = kind === 'notes' ? 'NOTE' : 'INSIGHT';
  const column = kind === 'notes' ? 'note_id' : 'insight_id';
  const rows: Record<string, unknown>[] = [];
  const highlights: Record<string, unknown>[] = [];
  const taggings: Record<string, unknown>[] = [];
  const highlightPeople: Record<string, unknown>[] = [];
  const notePeople: Record<string, unknown>[] = [];
  const values: Record<string, unknown>[] = [];
  const comments: Record<string, unknown>[] = [];
  const citations = new Map<string, string[]>(); // new insight id → new ids of the highlights it cites

  for (const { doc, lineNo } of docs) {
    const where = `${fileName} line ${lineNo}`;
    if (state.ids[kind].has(doc.id))
      throw new TransferError(`${where} repeats the id ${doc.id}. Nothing was imported.`);
    const id = randomUUID();
    state.ids[kind].set(doc.id, id);
    const contentText = plainText(doc.richText as RichTextNode | null);
    rows.push({
      id,
      workspace_id: workspaceId,
      project_id: projectId,
      title: doc.title,
      content: doc.richText ? JSON.stringify(doc.richText) : null,
      content_text: contentText,
      archived: doc.archived,
      locked: doc.locked,
      rank: doc.rank,
      ...(kind === 'insights'
        ? {
            published_at: doc.published ? (doc.publishedAt ?? doc.updatedAt) : null,
            summary: doc.summary ? JSON.stringify(doc.summary) : null,
          }
        : {}),
      created_by: member(state, doc.createdBy),
      updated_by: member(state, doc.updatedBy),
      created_at: doc.createdAt,
      updated_at: doc.updatedAt,
    });
    for (const h of doc.highlights) {
      if (h.endOffset > contentText.length)
        throw new TransferError(
          `${where}: highlight ${h.id} ends at ${h.endOffset}, past the end of the text (${contentText.length}). Nothing was imported.`,
        );
      const hid = randomUUID();
      state.ids.highlights.set(h.id, hid);
      highlights.push({
        id: hid,
        workspace_id: workspaceId,
        project_id: projectId,
        [column]: id,
        text: h.text,
        start_offset: h.startOffset,
        end_offset: h.endOffset,
        color: h.color,
        created_by: member(state, h.createdBy),
        created_at: h.createdAt,
      });
      for (const tagId of new Set(h.tagIds)) {
        const tag = state.ids.tags.get(tagId);
        if (!tag) throw missing(where, 'tag', tagId);
        taggings.push({
          workspace_id: workspaceId,
          highlight_id: hid,
          tag_id: tag,
          created_by: member(state, h.createdBy),
        });
      }
      for (const p of h.people)
        highlightPeople.push({
          workspace_id: workspaceId,
          highlight_id: hid,
          person_id: await personId(state, p),
          created_by: state.importerId,
        });
    }
    // Notes come before insights in an import, so every cited highlight already has its new id.
    const cited = (doc.citedHighlightIds ?? []).map((old) => {
      const hid = state.ids.highlights.get(old);
      if (!hid) throw missing(where, 'highlight', old);
      return hid;
    });
    if (cited.length) citations.set(id, cited);
    for (const p of doc.people ?? [])
      notePeople.push({
        workspace_id: workspaceId,
        note_id: id,
        person_id: await personId(state, p),
        created_by: state.importerId,
      });
    for (const datum of doc.fieldDatum) {
      const field = state.ids.fields.get(datum.fieldId);
      if (!field) throw missing(where, 'field', datum.fieldId);
      const value = fieldValue(state, where, datum);
      if (Array.isArray(value) && !value.length) continue;
      values.push({
        workspace_id: workspaceId,
        field_id: field,
        object_type: objectType,
        object_id: id,
        value: JSON.stringify(value),
        updated_by: state.importerId,
      });
    }
    for (const c of doc.comments) {
      for (const m of c.mentions) state.mentionIds.set(m.userId.toLowerCase(), member(state, m.email));
      const { body, mentioned } = remapMentions(c.body, state.mentionIds);
      const cid = randomUUID();
      state.ids.comments.set(c.id, cid);
      comments.push({
        id: cid,
        workspace_id: workspaceId,
        project_id: projectId,
        [column]: id,
        body,
        mentioned_user_ids: mentioned,
        created_by: member(state, c.createdBy),
        created_at: c.createdAt,
        updated_at: c.editedAt ?? c.createdAt,
        edited_at: c.editedAt,
      });
    }
  }
  const first = docs[0]?.lineNo ?? 0;
  const last = docs[docs.length - 1]?.lineNo ?? 0;
  try {
    await trx(kind).insert(rows);
    if (highlights.length) await trx('highlights').insert(highlights);
    if (taggings.length) await trx('highlight_tags').insert(taggings).onConflict(['highlight_id', 'tag_id']).ignore();
    if (highlightPeople.length)
      await trx('highlight_people').insert(highlightPeople).onConflict(['highlight_id', 'person_id']).ignore();
    if (notePeople.length) await trx('note_people').insert(notePeople).onConflict(['note_id', 'person_id']).ignore();
    if (values.length) await trx('field_values').insert(values);
    if (comments.length) await trx('comments').insert(comments);
    for (const [insightId, hids] of citations)
      await trx('highlights')
        .where({ workspace_id: workspaceId })
        .whereIn('id', hids)
        .update({ insight_id: insightId });
  } catch (error) {
    throw asTransferError(error, `${fileName} lines ${first}–${last}`);
  }
  count(state, kind, rows.length);
  count(state, 'highlights', highlights.length);
  count(state, 'comments', comments.length);
}

async function readManifest(dir: string): Promise<z.output<typeof manifestSchema>> {
  if (!existsSync(join(dir, MANIFEST_FILE)))
    throw new TransferError(
      `The archive has no ${MANIFEST_FILE}, so it is not a Fieldbook project export. Nothing was imported.`,
    );
  let json: unknown;
  try {
    json = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8'));
  } catch {
    throw new TransferError(`${MANIFEST_FILE} is not valid JSON, so the archive is damaged. Nothing was imported.`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success)
    throw new TransferError(`${MANIFEST_FILE}: ${describeIssue(parsed.error)}. Nothing was imported.`);
  for (const name of Object.values(EXPORT_FILES)) {
    const entry = parsed.data.files.find((f) => f.filepath === name);
    if (!entry || !existsSync(join(dir, name)))
      throw new TransferError(`The archive lacks ${name}. Nothing was imported.`);
    if (entry.uploadStatus !== 'COMPLETE')
      throw new TransferError(
        `${name} was not exported completely (its status is ${entry.uploadStatus}). Nothing was imported.`,
      );
  }
  return parsed.data;
}

/**
 * Imports an export as a new project of this workspace, in one transaction: a damaged archive,
 * a broken record or a crash leaves nothing behind. Every record gets a new id, and the id
 * mappings are stored with the transfer.
 */
async function runImport(ctx: ModuleContext, job: TransferJob, transfer: TransferRow): Promise<void> {
  const dir = join(importDir(ctx.config.dataDir, job.workspaceId, transfer.id), 'files');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  try {
    // The row names the archive and the request role writes rows: only an upload or an export
    // archive in the data folder is read, never another file of the server.
    if (
      !transfer.file_path ||
      !isTransferArchive(ctx.config.dataDir, transfer.file_path) ||
      !existsSync(transfer.file_path)
    ) {
      throw new TransferError('The archive to import is no longer there. Upload it again.');
    }
    await extractTar(transfer.file_path, dir, (name) => ARCHIVE_NAMES.has(name)).catch((error: unknown) => {
      throw error instanceof TarFormatError ? new TransferError(`${error.message} Nothing was imported.`) : error;
    });
    const manifest = await readManifest(dir);
    const total = manifest.files
      .filter((f) => f.filepath === EXPORT_FILES.notes || f.filepath === EXPORT_FILES.insights)
      .reduce((n, f) => n + (f.records ?? 0), 0);

    await inTenant(ctx.db.app, job, {}, async (trx) => {
      await once(trx, `project-import:${transfer.id}`, IMPORT_QUEUE, async () => {
        const membership = (await trx('workspace_members')
          .where({ workspace_id: job.workspaceId, user_id: job.userId })
          .first('role', 'workspace_admin')) as { role: string; workspace_admin: boolean } | undefined;
        if (!membership) throw new TransferError('You are no longer a member of this workspace.');
        const state: ImportState = {
          trx,
          workspaceId: job.workspaceId,
          importerId: job.userId,
          projectId: randomUUID(),
          members: await membersByEmail(trx, job.workspaceId),
          ids: Object.fromEntries(ID_MAPPING_KINDS.map((k) => [k, new Map<string, string>()])) as ImportState['ids'],
          fieldTypes: new Map(),
          droppedOptions: new Set(),
          mentionIds: new Map(),
          counts: {},
        };
        await importFolders(state, dir);
        const title = await importProjectRecord(
          state,
          dir,
          membership.workspace_admin || membership.role === 'MANAGER',
          transfer.title,
        );
        await importTags(state, dir);
        await importFields(state, dir);
        await importViews(state, dir);

        let done = 0;
        for (const [kind, schema] of [
          ['notes', noteSchema],
          ['insights', insightSchema],
        ] as const) {
          const fileName = EXPORT_FILES[kind];
          let batch: Array<{ doc: ImportedDocument; lineNo: number }> = [];
          const flush = async () => {
            if (!batch.length) return;
            await importDocuments(state, kind, fileName, batch);
            done += batch.length;
            batch = [];
            await patchTransfer(ctx.db.app, job, {
              progress: Math.min(95, 5 + Math.floor((90 * done) / Math.max(total, 1))),
            });
          };
          await eachRecord(dir, fileName, schema as z.ZodType<ImportedDocument>, async (doc, lineNo) => {
            batch.push({ doc, lineNo });
            if (batch.length >= BATCH) await flush();
          });
          await flush();
        }

        for (const kind of ID_MAPPING_KINDS)
          await recordIdMappings(trx, job.workspaceId, transfer.id, kind, state.ids[kind]);
        const [row] = (await trx('project_transfers')
          .where({ id: transfer.id })
          .update({
            status: 'COMPLETED',
            progress: 100,
            error: null,
            project_id: state.projectId,
            title,
            counts: JSON.stringify(state.counts),
            updated_at: trx.fn.now(),
            completed_at: trx.fn.now(),
          })
          .returning('*')) as TransferRow[];
        await notifyRequester(trx, row!, true);
      });
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function importJob(ctx: ModuleContext): JobDefinition<TransferJob> {
  return {
    queue: IMPORT_QUEUE,
    settings: { retryLimit: TRANSFER_RETRY_LIMIT, retryDelaySeconds: 5, expireInSeconds: 60 * 60 },
    handler: (job) => runTransferJob(ctx, job, 'IMPORT', (transfer) => runImport(ctx, job.data, transfer)),
  };
}
