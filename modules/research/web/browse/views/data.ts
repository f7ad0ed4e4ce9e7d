import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { useCallback, useEffect, useRef, useState } from 'react';

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
  | (CanvasBase & {
      kind: 'TEXT';
      width: number;
      height: number;
      text: string;
      format: 'PARAGRAPH' | 'H1' | 'H2' | 'H3';
    })
  | (CanvasBase & { kind: 'GROUP'; width: number; height: number; title: string; color: string })
  | (CanvasBase & { kind: 'REFERENCE'; width: number; height: number; objectType: ViewObjectType; objectId: string });

export interface ProjectViewData {
  id: string;
  title: string;
  layout: ViewLayout;
  objectType: ViewObjectType;
  canEdit: boolean;
  sort: Array<{ field: string; direction: 'ASC' | 'DESC' }>;
  filter: Record<string, unknown> | null;
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
  id title layout objectType canEdit sort { field direction } filter group { kind fieldId } columns { field width sticky wrapped }
  hiddenFields hiddenOptions hideUncategorized canvas { stagingArea { x y } } project { id title }
  canvasItems { id kind x y hidden
    ... on CanvasRectangle { width height }
    ... on CanvasText { width height text format }
    ... on CanvasGroup { width height title color }
    ... on CanvasReference { width height objectType objectId } } } }`;

export const ADD_CANVAS_ITEM = `mutation BrowseAddCanvasItem($viewId: ID!, $input: AddCanvasItemInput!) { addCanvasItem(viewId: $viewId, input: $input) { id } }`;

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
  maxSelectable: number | null;
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
  createdById: string | null;
  href: string;
  createdAt: string;
  updatedAt: string;
  published?: boolean;
  publishedAt?: string | null;
  archived?: boolean;
  locked?: boolean;
  /** Notes and insights: who created or last changed them. */
  contributorIds: string[];
  /** Notes and insights: the start of their text, their first image, their summary. */
  preview?: string;
  thumbnailUrl?: string | null;
  summary?: string | null;
  /** Notes: their highlights; insights: the highlights they cite. */
  highlightCount?: number;
  /** Notes: the insights citing their highlights. */
  insights: Array<{ id: string; title: string }>;
  /** Highlights: the note they are from, and their fill. */
  source?: { title: string; href: string };
  fill?: string | null;
  tags: ItemTag[];
  values: Map<string, ItemValue>;
}

export const FIELD_PREFIX = 'field.';
/** The board column (and group) of items without a value. */
export const NO_VALUE = '__none__';
export const fieldIdOf = (ref: string) => (ref.startsWith(FIELD_PREFIX) ? ref.slice(FIELD_PREFIX.length) : null);

const ROWS = `query BrowseViewRows($viewId: ID!, $first: Int, $after: String) { projectViewRows(viewId: $viewId, first: $first, after: $after) {
  totalCount hasNextPage endCursor rows { id title createdAt updatedAt createdById contributorIds published publishedAt archived locked noteId noteTitle color
    preview thumbnailUrl summary highlightCount insights { id title } tags { id title color } values { fieldId value } } } }`;
const FIELD = 'id label type maxSelectable options { id label color }';
const DETAILS = `query BrowseViewDetails($objectType: FieldObjectType!, $projectId: ID) {
  own: fieldSet(objectType: $objectType, projectId: $projectId) { ${FIELD} }
  workspace: fieldSet(objectType: WORKSPACE) { ${FIELD} }
  members(first: 100) { nodes { user { id name email } } } }`;

interface RowData {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  createdById: string | null;
  contributorIds: string[];
  published: boolean | null;
  publishedAt: string | null;
  archived: boolean | null;
  locked: boolean | null;
  noteId: string | null;
  noteTitle: string | null;
  color: string | null;
  preview: string | null;
  thumbnailUrl: string | null;
  summary: string | null;
  highlightCount: number | null;
  insights: Array<{ id: string; title: string }>;
  tags: ItemTag[];
  values: Array<{ fieldId: string; value: unknown }>;
}
interface RowPage {
  totalCount: number;
  hasNextPage: boolean;
  endCursor: string | null;
  rows: RowData[];
}

/** The first page is small so rows show at once; the rest come in pages of the most the server gives. */
export const FIRST_PAGE = 200;
export const NEXT_PAGE = 1000;

const KIND = { NOTE: 'note', INSIGHT: 'insight', HIGHLIGHT: 'highlight' } as const;

export function itemOfRow(type: ViewObjectType, r: RowData, fields: Map<string, FieldInfo>): ViewItem {
  const kind = KIND[type];
  const values = new Map<string, ItemValue>();
  for (const v of r.values) {
    const options = fields.get(v.fieldId)?.options ?? [];
    const ids = Array.isArray(v.value) ? (v.value as string[]) : [];
    values.set(v.fieldId, { value: v.value, options: ids.flatMap((id) => options.filter((o) => o.id === id)) });
  }
  return {
    id: r.id,
    kind,
    title: r.title || (kind === 'note' ? 'Untitled note' : kind === 'insight' ? 'Untitled insight' : ''),
    createdById: r.createdById,
    href:
      kind === 'note'
        ? `/data/${r.id}`
        : kind === 'insight'
          ? `/insights/${r.id}`
          : r.noteId
            ? `/data/${r.noteId}`
            : '#',
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    published: r.published ?? undefined,
    publishedAt: r.publishedAt,
    archived: r.archived ?? undefined,
    locked: r.locked ?? undefined,
    contributorIds: r.contributorIds,
    preview: r.preview ?? undefined,
    thumbnailUrl: r.thumbnailUrl,
    summary: r.summary,
    highlightCount: r.highlightCount ?? undefined,
    insights: r.insights,
    source: r.noteId ? { title: r.noteTitle || 'Untitled note', href: `/data/${r.noteId}` } : undefined,
    fill: r.color,
    tags: r.tags,
    values,
  };
}

export interface ViewItems {
  /** Null until the first page is in. */
  items: ViewItem[] | null;
  /** Every row the view's filter keeps (more than `items` while later pages load). */
  total: number;
  fields: Map<string, FieldInfo>;
  members: Map<string, string>;
  error: unknown;
  reload(): Promise<void>;
  /** Changes one item in place after an edit, without reloading ten thousand rows. */
  patch(id: string, change: (item: ViewItem) => ViewItem): void;
}

/**
 * The rows of a view, filtered and sorted by the server as the view is saved: a first page of
 * 200 to show at once, then the rest in pages of 1,000. With them the fields a note or insight
 * can have (the project's and the workspace's) and the workspace's members, for columns, groups
 * and editing.
 */
export function useViewItems(view: ProjectViewData | null): ViewItems {
  const { graphql } = useFieldbook();
  const [state, setState] = useState<{ items: ViewItem[] | null; total: number; error: unknown }>({
    items: null,
    total: 0,
    error: null,
  });
  const [details, setDetails] = useState<{ fields: Map<string, FieldInfo>; members: Map<string, string> } | null>(null);
  const run = useRef(0);
  const viewId = view?.id;
  const objectType = view?.objectType;
  const projectId = view?.project.id;
  // What changes the rows: the saved sort and filter (and the object type).
  const key = view ? JSON.stringify([view.id, view.objectType, view.sort, view.filter]) : null;

  useEffect(() => {
    if (!objectType || !projectId) return;
    let stale = false;
    const fieldType = objectType === 'HIGHLIGHT' ? null : objectType;
    graphql<{
      own?: FieldInfo[];
      workspace?: FieldInfo[];
      members: { nodes: Array<{ user: { id: string; name: string | null; email: string } }> };
    }>(
      fieldType ? DETAILS : 'query BrowseViewMembers { members(first: 100) { nodes { user { id name email } } } }',
      fieldType ? { objectType: fieldType, projectId } : {},
    )
      .then((data) => {
        if (stale) return;
        const fields = new Map<string, FieldInfo>();
        for (const f of [...(data.own ?? []), ...(data.workspace ?? [])]) fields.set(f.id, f);
        const members = new Map<string, string>();
        for (const m of data.members.nodes) members.set(m.user.id, m.user.name || m.user.email);
        setDetails({ fields, members });
      })
      .catch((error: unknown) => {
        if (!stale) setState((s) => ({ ...s, error }));
      });
    return () => {
      stale = true;
    };
  }, [graphql, objectType, projectId]);

  const load = useCallback(async () => {
    if (!viewId || !objectType || !details) return;
    const call = ++run.current;
    let after: string | null = null;
    let items: ViewItem[] = [];
    try {
      do {
        const page: RowPage = (
          await graphql<{ projectViewRows: RowPage }>(ROWS, {
            viewId,
            first: items.length ? NEXT_PAGE : FIRST_PAGE,
            after,
          })
        ).projectViewRows;
        if (call !== run.current) return;
        items = [...items, ...page.rows.map((r) => itemOfRow(objectType, r, details.fields))];
        setState({ items, total: page.totalCount, error: null });
        after = page.endCursor;
      } while (after);
    } catch (error) {
      if (call === run.current) setState((s) => ({ ...s, error }));
    }
    // `key` stands for the settings the rows depend on.
  }, [graphql, viewId, objectType, details, key]);

  useEffect(() => {
    void load();
  }, [load]);

  const patch = useCallback((id: string, change: (item: ViewItem) => ViewItem) => {
    setState((s) => (s.items ? { ...s, items: s.items.map((it) => (it.id === id ? change(it) : it)) } : s));
  }, []);

  return {
    items: details ? state.items : null,
    total: state.total,
    fields: details?.fields ?? new Map(),
    members: details?.members ?? new Map(),
    error: state.error,
    reload: load,
    patch,
  };
}
