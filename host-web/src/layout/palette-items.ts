import { hitPath } from '@fieldbook/search/web/hit-path';
/** One line of the command palette: a page or action, or an object found by search. */
export interface PaletteItem {
  id: string;
  label: string;
  hint: string;
  to: string;
}

export interface SearchHitLike {
  type: string;
  id: string;
  title: string;
  parentId: string | null;
  projectTitle: string | null;
}

const TYPE_LABEL: Record<string, string> = {
  NOTE: 'Note',
  INSIGHT: 'Insight',
  HIGHLIGHT: 'Highlight',
  PROJECT: 'Project',
  TAG: 'Tag',
  PERSON: 'Person',
  PROJECT_CATEGORY: 'Folder',
};

export function hitItem(hit: SearchHitLike): PaletteItem | null {
  const to = hitPath(hit);
  if (!to) return null;
  const kind = TYPE_LABEL[hit.type] ?? 'Result';
  return {
    id: `${hit.type}:${hit.id}`,
    label: hit.title || `Untitled ${kind.toLowerCase()}`,
    hint: hit.projectTitle ? `${kind} · ${hit.projectTitle}` : kind,
    to,
  };
}

/** The actions whose words all appear in the label or hint, in their order. */
export function matchActions(actions: readonly PaletteItem[], query: string): PaletteItem[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [...actions];
  return actions.filter((a) => {
    const text = `${a.label} ${a.hint}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** Whether a key press comes from somewhere a person types (then single-key shortcuts stay out). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as HTMLElement).tagName !== 'string') return false;
  const el = target as HTMLElement;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}
