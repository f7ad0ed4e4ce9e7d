import { atLeast, isRestricted, parsePermissionMap, projectAccess, type RequestContext } from '@fieldbook/core';
import { readableDoc, readableProjects, type Member } from '../tools/access.ts';
import type { Tool } from '../tools/define.ts';
import { ASK_FOR_CONFIRMATION } from '../tools/messaging.ts';
import { emailRecipients, outsideRefusal } from '../tools/recipients.ts';
import { textDiff, type DiffLine } from './diff.ts';
import type { SourceProject } from './sources.ts';

export type { DiffLine } from './diff.ts';

/**
 * What an action the person is asked to confirm will do, in words: the action, where it lands,
 * the title it gives, the text it writes or sends, and what will not happen as the agent asked.
 * Shown instead of the tool's raw input.
 */
export interface ActionSummary {
  /** "Create a note", "Delete all the text of a note", "Send an email". */
  action: string;
  /** Where it acts: "project “Beta interviews”", "note “Interview with Priya”", the addresses. */
  target: string | null;
  title: string | null;
  /** The text it writes or sends (the start of it, when long). */
  preview: string | null;
  /** Other inputs, one "Label: value" a line. */
  details: string[];
  /** What will not happen as the agent asked, and why (recipients left out), and who else will read it. */
  warnings: string[];
  /** A note's text before and after the change, paragraph by paragraph. */
  diff: DiffLine[] | null;
}

/**
 * The card to show (with, for an edit, the note's version it was drawn from), or why the call is
 * refused without asking (nothing the person could confirm).
 */
export type Prepared = { summary: ActionSummary; drawnFrom?: NoteVersion } | { refused: string };

/** A note as a card showed it: confirming changes it only if it is still so. */
export interface NoteVersion {
  noteId: string;
  updatedAt: string;
}

/** Why a confirmed edit must not go ahead, or null: the note changed after its card was drawn. */
export async function changedSince(member: RequestContext, m: Member, v: NoteVersion): Promise<string | null> {
  const row = (await member.tx((trx) =>
    trx('notes').where({ id: v.noteId, workspace_id: m.workspaceId }).first('updated_at'),
  )) as { updated_at: Date } | undefined;
  if (row && row.updated_at.toISOString() === v.updatedAt) return null;
  return 'the note changed after you were asked, so what you confirmed is no longer what would happen. Nothing was changed; ask again to see the change as it is now.';
}

const PREVIEW_MAX = 4000;
const cut = (s: string) =>
  s.length > PREVIEW_MAX
    ? `${s.slice(0, PREVIEW_MAX).trimEnd()}… (${(s.length - PREVIEW_MAX).toLocaleString('en-US')} more characters)`
    : s;
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const chars = (n: number) => `${n.toLocaleString('en-US')} character${n === 1 ? '' : 's'}`;
const label = (key: string) =>
  key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .replace(/^./, (c) => c.toUpperCase());

/** A value as a person reads it: text as it is, lists joined, anything else in short JSON. */
function shown(v: unknown): string {
  if (typeof v === 'string') return cut(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.join(', ');
  return cut(JSON.stringify(v));
}

const summary = (s: Partial<ActionSummary> & { action: string }): { summary: ActionSummary } => ({
  summary: { target: null, title: null, preview: null, details: [], warnings: [], diff: null, ...s },
});

/** Whether the person may write in the project (their level there, not only their role). */
async function writable(member: RequestContext, m: Member, projectId: string): Promise<boolean> {
  const row = (await member.tx((trx) =>
    trx('projects').where({ id: projectId, workspace_id: m.workspaceId }).whereNull('deleted_at').first('permissions'),
  )) as { permissions: unknown } | undefined;
  return Boolean(row) && atLeast(projectAccess(m.membership, m.userId, row!.permissions).level, 'write');
}

/**
 * A note written in one project may carry what the conversation read in a restricted other: the
 * person may mean it, but the card says who will be able to read it.
 */
function carried(sources: readonly SourceProject[], targetId: string, targetTitle: string): string[] {
  return sources
    .filter((p) => p.id !== targetId && isRestricted(parsePermissionMap(p.permissions)))
    .map(
      (p) =>
        `This conversation read from project “${p.title.trim() || 'Untitled project'}”, which not every member can open; everyone who can open project “${targetTitle.trim() || 'Untitled project'}” will be able to read what this writes.`,
    );
}

async function createNote(
  member: RequestContext,
  m: Member,
  o: Record<string, unknown>,
  sources: readonly SourceProject[],
): Promise<Prepared> {
  const id = typeof o.projectId === 'string' ? o.projectId : '';
  const title = (await member.tx((trx) => readableProjects(trx, m))).get(id);
  if (title === undefined) return { refused: 'That project was not found, so nothing was created.' };
  if (!(await writable(member, m, id)))
    return { refused: `You cannot add notes to project “${title}”, so nothing was created.` };
  const text = typeof o.text === 'string' ? o.text : '';
  return summary({
    action: 'Create a note',
    target: `project “${title.trim() || 'Untitled project'}”`,
    title: str(o.title),
    preview: text.trim() ? cut(text) : null,
    warnings: carried(sources, id, title),
  });
}

/**
 * An edit as a change to the note: the before and after of its text, and its title; replacing the
 * text with nothing is named a deletion, with how much goes.
 */
async function editNote(
  member: RequestContext,
  m: Member,
  o: Record<string, unknown>,
  sources: readonly SourceProject[],
): Promise<Prepared> {
  let note;
  try {
    note = await member.tx((trx) => readableDoc(trx, m, 'notes', typeof o.noteId === 'string' ? o.noteId : ''));
  } catch {
    return { refused: 'That note was not found, so nothing was changed.' };
  }
  const name = `note “${note.title.trim() || 'Untitled note'}” in “${note.projectTitle}”`;
  if (!(await writable(member, m, note.project_id)))
    return { refused: `You cannot edit the ${name}, so nothing was changed.` };
  const before = note.content_text;
  const text = typeof o.text === 'string' ? o.text : null;
  const replace = o.mode === 'replace';
  const after = text === null ? before : replace ? text : [before, text].filter((t) => t !== '').join('\n');
  const newTitle = str(o.title);
  const renames = newTitle !== null && newTitle !== note.title.trim();
  let action: string;
  if (text === null) action = 'Rename a note';
  else if (replace && after.trim() === '' && before.trim() !== '') action = 'Delete all the text of a note';
  else if (replace) action = 'Replace the text of a note';
  else action = 'Add text at the end of a note';
  if (text !== null && renames) action += ', and rename it';
  const details: string[] = [];
  if (renames) details.push(`Title: “${note.title.trim() || 'Untitled note'}” → “${newTitle}”`);
  if (text !== null) {
    const removed = textDiff(before, after).some((l) => l.kind === 'REMOVED');
    details.push(
      after.trim() === '' && before.trim() !== ''
        ? `Deletes all ${chars(before.length)} of its text.`
        : `Its text goes from ${chars(before.length)} to ${chars(after.length)}${removed ? '; some of it is removed' : ''}.`,
    );
  }
  return {
    ...summary({
      action,
      target: name,
      // A new title is in the details, old and new side by side.
      title: null,
      details,
      warnings: carried(sources, note.project_id, note.projectTitle),
      diff: text === null ? null : textDiff(before, after),
    }),
    drawnFrom: { noteId: note.id, updatedAt: note.updated_at.toISOString() },
  };
}

async function sendEmail(
  member: RequestContext,
  o: Record<string, unknown>,
  sources: readonly SourceProject[],
): Promise<Prepared> {
  const to = Array.isArray(o.to) ? o.to.filter((t): t is string => typeof t === 'string') : [];
  const { allowed, refused } = await emailRecipients(member, to, sources);
  const reasons = refused.map((r) => `${r.to}: ${r.reason}`);
  if (allowed.length === 0) return { refused: `Nothing was sent: ${reasons.join('; ')}.` };
  return summary({
    action: 'Send an email',
    target: allowed.join(', '),
    title: str(o.subject),
    preview: typeof o.text === 'string' ? cut(o.text) : null,
    warnings: refused.map((r) => `Not sent to ${r.to}: ${r.reason}.`),
  });
}

/**
 * What the person is asked before a tool runs, or why it is refused before asking: a write they
 * could not make, mail with no one left who may read it, a post out of the workspace carrying
 * what not every member may open.
 */
export async function prepareAction(
  member: RequestContext,
  m: Member,
  tool: Tool,
  input: unknown,
  sources: readonly SourceProject[],
): Promise<Prepared> {
  const o = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  if (tool.name === ASK_FOR_CONFIRMATION) return summary({ action: str(o.message) ?? 'Go on?' });
  if (tool.name === 'create_document') return createNote(member, m, o, sources);
  if (tool.name === 'edit_document') return editNote(member, m, o, sources);
  if (tool.name === 'send_email') return sendEmail(member, o, sources);
  if (tool.sendsOutside) {
    const closed = outsideRefusal(sources);
    if (closed) return { refused: `Nothing was sent: ${closed}` };
  }
  if (tool.name === 'send_slack_notification')
    return summary({
      action: 'Post to Slack',
      target: `Slack channel${Array.isArray(o.channelIds) && o.channelIds.length === 1 ? '' : 's'} ${shown(o.channelIds)}`,
      preview: typeof o.text === 'string' ? cut(o.text) : null,
    });
  // Any other tool (a plugin's): its inputs, labelled, ids left out.
  const details = Object.entries(o)
    .filter(([k, v]) => v !== undefined && v !== null && v !== '' && !/Id$|^id$/.test(k))
    .map(([k, v]) => `${label(k)}: ${shown(v)}`);
  return summary({ action: label(tool.name), details });
}
