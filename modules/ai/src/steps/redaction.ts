import { AppError } from '@fieldbook/core';
import { plainText, type RichTextNode } from '@fieldbook/research';
import { itemFor } from '../access.ts';
import type { StepEnv, StepMade } from './env.ts';
import { describeFindings, findPersonalData, maskSpans } from './redact.ts';
import type { StepResult, StepRunRow } from './store.ts';

type Before = NonNullable<StepResult['before']>;

/** Masks personal data in every text node: same length, so the plain text keeps its offsets. */
function masked(node: RichTextNode): RichTextNode {
  if (node.type === 'text' && typeof node.text === 'string')
    return { ...node, text: maskSpans(node.text, findPersonalData(node.text)) };
  return Array.isArray(node.content) ? { ...node, content: node.content.map(masked) } : node;
}

/** Redacts the note now (as its editor), and answers what undoing it needs; null when nothing was left to redact. */
export async function applyRedaction(env: Pick<StepEnv, 'member' | 'caller'>, noteId: string): Promise<Before | null> {
  return env.member.tx(async (trx) => {
    await itemFor(trx, env.caller, 'notes', noteId, 'write');
    const note = (await trx('notes').where({ id: noteId }).forUpdate().first('content', 'content_text')) as {
      content: RichTextNode | null;
      content_text: string;
    };
    if (!note.content) return null;
    const content = masked(note.content);
    const text = plainText(content);
    // Same-length masks keep every offset; a text that changed length would misplace highlights.
    if (text === note.content_text || text.length !== note.content_text.length) return null;
    const highlights = (await trx('highlights')
      .where({ workspace_id: env.caller.workspaceId, note_id: noteId })
      .whereNull('deleted_at')
      .select('id', 'text', 'start_offset', 'end_offset')) as Array<{
      id: string;
      text: string;
      start_offset: number;
      end_offset: number;
    }>;
    await trx('notes')
      .where({ id: noteId })
      .update({ content: JSON.stringify(content), content_text: text, updated_at: trx.fn.now() });
    const changed = highlights.filter((h) => text.slice(h.start_offset, h.end_offset) !== h.text);
    for (const h of changed)
      await trx('highlights')
        .where({ id: h.id })
        .update({ text: text.slice(h.start_offset, h.end_offset) });
    return {
      content: note.content,
      contentText: note.content_text,
      redactedText: text,
      highlights: changed.map((h) => ({ id: h.id, text: h.text })),
    };
  });
}

export async function redactStep(env: StepEnv, mode: 'On' | 'Suggest'): Promise<StepMade> {
  const findings = findPersonalData(env.note.content_text);
  if (findings.length === 0) return { status: 'DONE', detail: 'No personal data found', model: 'local' };
  const what = describeFindings(findings);
  if (mode === 'Suggest')
    return { status: 'PENDING', detail: `Found ${what} to review`, result: { findings }, model: 'local' };
  const before = await applyRedaction(env, env.note.id);
  if (!before) return { status: 'DONE', detail: 'No personal data found', model: 'local' };
  // The places only: the values themselves are kept once, in what undoing needs.
  return {
    status: 'DONE',
    detail: `Redacted ${what}`,
    result: { findings: findings.map(({ kind, start, end }) => ({ kind, start, end })), before },
    model: 'local',
  };
}

/** Puts the note back as it was, unless it was edited since: those edits would be lost. */
export async function undoRedaction(env: Pick<StepEnv, 'member' | 'caller'>, run: StepRunRow): Promise<void> {
  const before = run.result.before;
  if (!before) throw new AppError('INVALID_OPERATION', 'Nothing was redacted, so there is nothing to undo.');
  await env.member.tx(async (trx) => {
    await itemFor(trx, env.caller, 'notes', run.note_id, 'write');
    const note = (await trx('notes').where({ id: run.note_id }).forUpdate().first('content_text')) as {
      content_text: string;
    };
    if (note.content_text !== before.redactedText) {
      throw new AppError(
        'INVALID_OPERATION',
        'The note was edited after it was redacted, so undoing the redaction would lose those edits.',
      );
    }
    await trx('notes')
      .where({ id: run.note_id })
      .update({ content: JSON.stringify(before.content), content_text: before.contentText, updated_at: trx.fn.now() });
    for (const h of before.highlights)
      await trx('highlights').where({ id: h.id, note_id: run.note_id }).update({ text: h.text });
  });
}
