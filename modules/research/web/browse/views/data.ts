import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { useEffect, useState } from 'react';
import type { Connection, DocumentSummary, HighlightSummary } from '../api.ts';
import { useLoad } from '../ui/hooks.ts';

/** A project view as views/schema.ts answers it, with its canvas items. */
export type ViewLayout = 'BOARD' | 'CANVAS' | 'GRID' | 'LIST' | 'TABLE';
export type ViewObjectType = 'HIGHLIGHT' | 'INSIGHT' | 'NOTE';

export interface ViewColumn {
  field: string;
  width: number | null;
  sticky: boolean;
  wrapped: boolean;
}

interface CanvasBase {
  id: string;
  x: number;
  y: number;
  hidden: boolean;
}
export type CanvasItem =
  | (CanvasBase & { kind: 'RECTANGLE'; width: number; height: number })
  | (CanvasBase & { kind: 'TEXT'; width: number; height: number; text: string; format: 'PARAGRAPH' | 'H1' | 'H2' | 'H3' })
  | (CanvasBase & { kind: 'GROUP'; width: number; height: number; title: string; color: string })
  | (CanvasBase & { kind: 'REFERENCE'; objectType: ViewObjectType; objectId: string });

export interface ProjectViewData {
  id: string;
  title: string;
  layout: ViewLayout;
  objectType: ViewObjectType;
  canEdit: boolean;
  sort: Array<{ field: string; direction: 'ASC' | 'DESC' }>;
  group: { kind: 'SELECT' | 'PERSON' | 'PUBLISHED' | 'TAG'; fieldId: string | null } | null;
  columns: ViewColumn[];
  hiddenFields: string[];
  hiddenOptions: string[];
  hideUncategorized: boolean;
  canvas: { stagingArea: { x: number; y: number } | null };
  canvasItems: CanvasItem[];
  project: { id: string; title: string };
}

export const VIEWS = `query BrowseViews($projectId: ID!) { projectViews(projectId: $projectId) { id title layout objectType } }`;

export const VIEW = `query BrowseView($id: ID!) { projectView(id: $id) {
  id title layout objectType canEdit sort { field direction } group { kind fieldId } columns { field width sticky wrapped }
  hiddenFields hiddenOptions hideUncategorized canvas { stagingArea { x y } } project { id title }
  canvasItems { id kind x y hidden
    ... on CanvasRectangle { width height }
    ... on CanvasText { width height text format }
    ... on CanvasGroup { width height title color }
    ... on CanvasReference { objectType objectId } } } }`;

export const ADD_CANVAS_ITEM = `mutation BrowseAddCanvasItem($viewId: ID!, $input: AddCanvasItemInput!) { addCanvasItem(viewId: $viewId, input: $input) { id } }`;

const DOC = 'id projectId title archived locked createdById createdAt updatedAt';
const NOTES = `query BrowseViewNotes($projectId: ID!) { notes(projectId: $projectId, first: 100, orderBy: CREATED_DESC) { nodes { ${DOC} } hasNextPage } }`;
const INSIGHTS = `query BrowseViewInsights($projectId: ID!) { insights(projectId: $projectId, first: 100, orderBy: CREATED_DESC) { nodes { ${DOC} published } hasNextPage } }`;
const HIGHLIGHTS = `query BrowseViewHighlights($projectId: ID!) { highlights(projectId: $projectId, first: 100) {
  nodes { id text displayColor createdAt noteId note { id title project { id title } } } hasNextPage } }`;

export interface ItemTag {
  id: string;
  title: string;
  color: string;
}
export interface FieldOption {
  id: string;
  label: string;
  color: string;
}
export interface FieldInfo {
  id: string;
  label: string;
  type: string;
  options: FieldOption[];
}
export interface ItemValue {
  value: unknown;
  options: FieldOption[];
}

/** One card or row of a view, whatever its object type. */
export interface ViewItem {
  id: string;
  kind: 'note' | 'insight' | 'highlight';
  title: string;
  href: string;
  createdAt: string;
  updatedAt: string;
  published?: boolean;
  archived?: boolean;
  locked?: boolean;
  /** Highlights: the note they are from, and their fill. */
  source?: { title: string; href: string };
  fill?: string | null;
  tags: ItemTag[];
  values: Map<string, ItemValue>;
}

export const FIELD_PREFIX = 'field.';
const fieldIdOf = (ref: string) => (ref.startsWith(FIELD_PREFIX) ? ref.slice(FIELD_PREFIX.length) : null);

const docItem = (kind: 'note' | 'insight') => (d: DocumentSummary): ViewItem => ({
  id: d.id,
  kind,
  title: d.title || (kind === 'note' ? 'Untitled note' : 'Untitled insight'),
  href: kind === 'note' ? `/data/${d.id}` : `/insights/${d.id}`,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
  published: d.published,
  archived: d.archived,
  locked: d.locked,
  tags: [],
  values: new Map(),
});

const highlightItem = (h: HighlightSummary): ViewItem => ({
  id: h.id,
  kind: 'highlight',
  title: h.text,
  href: h.note ? `/data/${h.note.id}` : '#',
  createdAt: h.createdAt,
  updatedAt: h.createdAt,
  source: h.note ? { title: h.note.title || 'Untitled note', href: `/data/${h.note.id}` } : undefined,
  fill: h.displayColor,
  tags: [],
  values: new Map(),
});

/** The fields a view needs to know: its grouping field and the custom fields its columns show. */
export function fieldsOfView(view: ProjectViewData): string[] {
  const ids = new Set<string>();
  if ((view.group?.kind === 'SELECT' || view.group?.kind === 'PERSON') && view.group.fieldId) ids.add(view.group.fieldId);
  if (view.layout === 'TABLE') for (const c of view.columns) if (fieldIdOf(c.field)) ids.add(fieldIdOf(c.field)!);
  return [...ids];
}

export interface ViewItems {
  items: ViewItem[] | null;
  more: boolean;
  fields: Map<string, FieldInfo>;
  members: Map<string, string>;
  error: unknown;
  reload(): Promise<void>;
}

/**
 * The items a view shows (the project's newest 100 of its object type), with what its layout
 * needs on top: the tags of highlights and the values of the fields it groups by or shows. Those
 * come in one request for every item, however many there are.
 */
export function useViewItems(view: ProjectViewData | null): ViewItems {
  const { graphql } = useFieldbook();
  const objectType = view?.objectType;
  const query = objectType === 'HIGHLIGHT' ? HIGHLIGHTS : objectType === 'INSIGHT' ? INSIGHTS : NOTES;
  const base = useLoad<{ notes?: Connection<DocumentSummary>; insights?: Connection<DocumentSummary>; highlights?: Connection<HighlightSummary> }>(query, { projectId: view?.project.id }, { skip: !view });
  const [extra, setExtra] = useState<{ key: string; items: ViewItem[]; fields: Map<string, FieldInfo>; members: Map<string, string> } | null>(null);
  const [extraError, setExtraError] = useState<unknown>(null);

  const fieldIds = view ? fieldsOfView(view) : [];
  const key = JSON.stringify([objectType, fieldIds, base.data ? Object.values(base.data)[0]?.nodes.map((n) => n.id) : null]);

  useEffect(() => {
    if (!view || !base.data) return;
    const items =
      view.objectType === 'HIGHLIGHT'
        ? (base.data.highlights?.nodes ?? []).map(highlightItem)
        : view.objectType === 'INSIGHT'
          ? (base.data.insights?.nodes ?? []).map(docItem('insight'))
          : (base.data.notes?.nodes ?? []).map(docItem('note'));
    const ids = fieldsOfView(view);
    const parts: string[] = [];
    if (view.objectType === 'HIGHLIGHT') items.forEach((it, i) => parts.push(`t${i}: highlightTags(highlightId: ${JSON.stringify(it.id)}) { id title color }`));
    else if (ids.length) items.forEach((it, i) => parts.push(`v${i}: fieldValues(objectType: ${view.objectType}, objectId: ${JSON.stringify(it.id)}) { field { id } value options { id label color } }`));
    ids.forEach((id, i) => parts.push(`f${i}: field(id: ${JSON.stringify(id)}) { id label type options { id label color } }`));
    const needsMembers = view.group?.kind === 'PERSON' || ids.length > 0;
    if (needsMembers) parts.push('members(first: 100) { nodes { user { id name email } } }');
    let stale = false;
    const done = (data: Record<string, unknown>) => {
      if (stale) return;
      const fields = new Map<string, FieldInfo>();
      ids.forEach((_, i) => {
        const f = data[`f${i}`] as FieldInfo | undefined;
        if (f) fields.set(f.id, f);
      });
      const members = new Map<string, string>();
      for (const m of (data.members as { nodes: Array<{ user: { id: string; name: string | null; email: string } }> } | undefined)?.nodes ?? []) members.set(m.user.id, m.user.name || m.user.email);
      const enriched = items.map((it, i) => {
        const tags = (data[`t${i}`] as ItemTag[] | undefined) ?? [];
        const values = new Map<string, ItemValue>();
        for (const v of (data[`v${i}`] as Array<{ field: { id: string }; value: unknown; options: FieldOption[] }> | undefined) ?? []) values.set(v.field.id, { value: v.value, options: v.options });
        return { ...it, tags, values };
      });
      setExtra({ key, items: enriched, fields, members });
    };
    if (!parts.length) {
      done({});
      return;
    }
    setExtraError(null);
    graphql<Record<string, unknown>>(`query BrowseViewDetails { ${parts.join('\n')} }`)
      .then(done)
      .catch((err: unknown) => {
        if (!stale) setExtraError(err);
      });
    return () => {
      stale = true;
    };
    // `key` stands for the view's settings and the loaded ids.
  }, [key, graphql]);

  const conn = base.data ? Object.values(base.data)[0] : undefined;
  return {
    items: extra && extra.key === key ? extra.items : null,
    more: Boolean(conn?.hasNextPage),
    fields: extra?.fields ?? new Map(),
    members: extra?.members ?? new Map(),
    error: base.error ?? extraError,
    reload: base.reload,
  };
}

/** Items in the view's saved order (system fields Title, Created and Updated; others keep the list's order). */
export function sortItems(items: ViewItem[], sort: ProjectViewData['sort']): ViewItem[] {
  const by = sort.filter((s) => ['Title', 'Created', 'Updated'].includes(s.field));
  if (!by.length) return items;
  return [...items].sort((a, b) => {
    for (const s of by) {
      const d = s.field === 'Title' ? a.title.localeCompare(b.title) : s.field === 'Created' ? a.createdAt.localeCompare(b.createdAt) : a.updatedAt.localeCompare(b.updatedAt);
      if (d) return s.direction === 'ASC' ? d : -d;
    }
    return 0;
  });
}
