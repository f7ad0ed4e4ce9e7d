import type { Knex } from 'knex';
import { itemFor, type Caller } from '../access.ts';
import { JsonLines, str } from '../jsonl.ts';
import { needsModel, stepProvenance, plural, type StepEnv, type StepMade } from './env.ts';
import { TAGS_PROMPT_VERSION, tagMessages } from './prompts.ts';
import type { StepRunRow, Tagging } from './store.ts';

/** At most this many tags are offered to the model: a prompt of every tag of a big workspace would drown it. */
const MAX_TAGS = 300;

/** The note's highlights, and the tags that may go on them: workspace-wide boards and the note's project's. */
async function material(trx: Knex.Transaction, caller: Caller, note: StepEnv['note']) {
  const highlights = (await trx('highlights')
    .where({ workspace_id: caller.workspaceId, note_id: note.id })
    .whereNull('deleted_at')
    .orderBy('start_offset')
    .select('id', 'text')) as Array<{ id: string; text: string }>;
  const tags = (await trx('tags as t')
    .join('tag_boards as b', 'b.id', 't.board_id')
    .where('t.workspace_id', caller.workspaceId)
    .where((q) => void q.whereNull('b.project_id').orWhere('b.project_id', note.project_id))
    .orderBy('t.title')
    .limit(MAX_TAGS)
    .select('t.id', 't.title', 't.description')) as Array<{ id: string; title: string; description: string | null }>;
  const applied = highlights.length
    ? ((await trx('highlight_tags')
        .whereIn(
          'highlight_id',
          highlights.map((h) => h.id),
        )
        .select('highlight_id', 'tag_id')) as Array<{ highlight_id: string; tag_id: string }>)
    : [];
  return { highlights, tags, applied: new Set(applied.map((a) => `${a.highlight_id}:${a.tag_id}`)) };
}

const summary = (taggings: readonly Tagging[]) =>
  `${plural(new Set(taggings.map((t) => t.highlightId)).size, 'highlight')}: ${[...new Set(taggings.map((t) => t.title))].join(', ')}`;

/** Tags from the workspace's own, chosen by the model for each highlight of the note. */
export async function tagsStep(env: StepEnv, mode: 'On' | 'Suggest'): Promise<StepMade> {
  if (!env.ai.model) return needsModel('Tagging');
  env.member.authorize('tags:update');
  const { highlights, tags, applied } = await env.member.tx((trx) => material(trx, env.caller, env.note));
  if (highlights.length === 0)
    return { status: 'SKIPPED', detail: 'Tagging skipped', reason: 'The note has no highlights to tag yet.' };
  if (tags.length === 0)
    return {
      status: 'SKIPPED',
      detail: 'Tagging skipped',
      reason: 'There are no tags in this workspace yet; tagging uses only existing tags.',
    };
  const result = await env.ai.chat(
    { workspaceId: env.caller.workspaceId, userId: env.caller.userId, feature: 'automation' },
    { messages: tagMessages(tags, highlights), temperature: 0 },
  );
  const lines = new JsonLines();
  const titles = new Map(tags.map((t) => [t.id, t.title]));
  const ids = new Set(highlights.map((h) => h.id));
  const taggings: Tagging[] = [];
  for (const o of [...lines.push(result.text), ...lines.end()]) {
    const highlightId = str(o.highlightId);
    const tagId = str(o.tagId);
    // Only real highlights of this note and existing tags: an invented id is dropped.
    if (o.type !== 'tag' || !highlightId || !tagId || !ids.has(highlightId) || !titles.has(tagId)) continue;
    const key = `${highlightId}:${tagId}`;
    if (applied.has(key)) continue;
    applied.add(key);
    taggings.push({ highlightId, tagId, title: titles.get(tagId)! });
  }
  const provenance = stepProvenance(env, result, TAGS_PROMPT_VERSION, highlights);
  if (taggings.length === 0)
    return { status: 'DONE', detail: 'No tag fits these highlights', model: result.model, provenance };
  if (mode === 'Suggest')
    return {
      status: 'PENDING',
      detail: `Tags suggested for ${summary(taggings)}`,
      result: { taggings },
      model: result.model,
      provenance,
    };
  const done = await applyTaggings(env, env.note.id, taggings);
  return {
    status: 'DONE',
    detail: `Tagged ${summary(done)}`,
    result: { taggings: done },
    model: result.model,
    provenance,
  };
}

/** Applies taggings to highlights still in the note; answers those newly applied. */
export async function applyTaggings(
  env: Pick<StepEnv, 'member' | 'caller'>,
  noteId: string,
  taggings: readonly Tagging[],
): Promise<Tagging[]> {
  env.member.authorize('tags:update');
  return env.member.tx(async (trx) => {
    await itemFor(trx, env.caller, 'notes', noteId, 'write');
    const live = new Set(
      (
        (await trx('highlights')
          .where({ note_id: noteId })
          .whereNull('deleted_at')
          .whereIn(
            'id',
            taggings.map((t) => t.highlightId),
          )
          .select('id')) as Array<{ id: string }>
      ).map((h) => h.id),
    );
    const wanted = taggings.filter((t) => live.has(t.highlightId));
    if (wanted.length === 0) return [];
    const inserted = (await trx('highlight_tags')
      .insert(
        wanted.map((t) => ({
          workspace_id: env.caller.workspaceId,
          highlight_id: t.highlightId,
          tag_id: t.tagId,
          created_by: env.caller.userId,
        })),
      )
      .onConflict(['highlight_id', 'tag_id'])
      .ignore()
      .returning(['highlight_id', 'tag_id'])) as Array<{ highlight_id: string; tag_id: string }>;
    const made = new Set(inserted.map((r) => `${r.highlight_id}:${r.tag_id}`));
    return wanted.filter((t) => made.has(`${t.highlightId}:${t.tagId}`));
  });
}

export async function undoTaggings(env: Pick<StepEnv, 'member' | 'caller'>, run: StepRunRow): Promise<void> {
  env.member.authorize('tags:update');
  await env.member.tx(async (trx) => {
    await itemFor(trx, env.caller, 'notes', run.note_id, 'write');
    for (const t of run.result.taggings ?? [])
      await trx('highlight_tags').where({ highlight_id: t.highlightId, tag_id: t.tagId }).delete();
  });
}
