import type { RequestContext } from '@fieldbook/core';
import { readableDoc, readableProjects, type Member } from '../tools/access.ts';
import { ASK_FOR_CONFIRMATION } from '../tools/messaging.ts';

/**
 * What an action the person is asked to confirm will do, in words: the action, where it lands,
 * the title it gives, and the start of the text it writes. Shown instead of the tool's raw input.
 */
export interface ActionSummary {
  action: string;
  /** Where it acts: "project “Beta interviews”", "note “Interview with Priya”", an address. */
  target: string | null;
  title: string | null;
  /** The beginning of the text it writes. */
  preview: string | null;
  /** Other inputs, one "Label: value" a line. */
  details: string[];
}

const PREVIEW_MAX = 400;
const cut = (s: string) => (s.length > PREVIEW_MAX ? `${s.slice(0, PREVIEW_MAX).trimEnd()}…` : s);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
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

async function projectTitle(member: RequestContext, m: Member, id: unknown): Promise<string> {
  const titles =
    typeof id === 'string' ? await member.tx((trx) => readableProjects(trx, m)) : new Map<string, string>();
  const t = typeof id === 'string' ? titles.get(id) : undefined;
  return t === undefined ? 'a project you cannot open' : `project “${t.trim() || 'Untitled project'}”`;
}

async function noteTitle(member: RequestContext, m: Member, id: unknown): Promise<string> {
  if (typeof id !== 'string') return 'a note you cannot open';
  try {
    const note = await member.tx((trx) => readableDoc(trx, m, 'notes', id));
    return `note “${note.title.trim() || 'Untitled note'}” in “${note.projectTitle}”`;
  } catch {
    return 'a note you cannot open';
  }
}

export async function describeAction(
  member: RequestContext,
  m: Member,
  toolName: string,
  input: unknown,
): Promise<ActionSummary> {
  const o = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  if (toolName === ASK_FOR_CONFIRMATION)
    return { action: str(o.message) ?? 'Go on?', target: null, title: null, preview: null, details: [] };
  if (toolName === 'create_document') {
    return {
      action: 'Create a note',
      target: await projectTitle(member, m, o.projectId),
      title: str(o.title),
      preview: str(o.text) ? cut(str(o.text)!) : null,
      details: [],
    };
  }
  if (toolName === 'edit_document') {
    const text = str(o.text);
    const action = text
      ? o.mode === 'replace'
        ? 'Replace the text of a note'
        : 'Add text at the end of a note'
      : 'Rename a note';
    return {
      action,
      target: await noteTitle(member, m, o.noteId),
      title: str(o.title),
      preview: text ? cut(text) : null,
      details: [],
    };
  }
  // Any other tool (email, Slack, a plugin's): its inputs, labelled, ids left out.
  const details = Object.entries(o)
    .filter(([k, v]) => v !== undefined && v !== null && v !== '' && !/Id$|^id$/.test(k))
    .map(([k, v]) => `${label(k)}: ${shown(v)}`);
  return { action: label(toolName), target: null, title: null, preview: null, details };
}
