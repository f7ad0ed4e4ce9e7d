import { FIELD_PREFIX, type FieldInfo, type ProjectViewData, type ViewColumn, type ViewObjectType } from './data.ts';

/**
 * The columns a view can show (002 §2): notes have title, content preview, thumbnail, tags,
 * insights, created, updated, created by, contributors and summary (and highlight count);
 * insights add published at and status; highlights show their text, note, tags, authors and
 * created; notes and insights add their custom fields (the project's and the workspace's).
 */
const NOTE_COLUMNS = [
  { field: 'Title', label: 'Title' },
  { field: 'Content', label: 'Content preview' },
  { field: 'Thumbnail', label: 'Thumbnail' },
  { field: 'Tags', label: 'Tags' },
  { field: 'Insights', label: 'Insights' },
  { field: 'HighlightCount', label: 'Highlights' },
  { field: 'Created', label: 'Created' },
  { field: 'Updated', label: 'Updated' },
  { field: 'Authors', label: 'Created by' },
  { field: 'Contributors', label: 'Contributors' },
  { field: 'Summary', label: 'Summary' },
  { field: 'Archived', label: 'Archived' },
];
const SYSTEM_COLUMNS: Record<ViewObjectType, Array<{ field: string; label: string }>> = {
  NOTE: NOTE_COLUMNS,
  INSIGHT: [
    ...NOTE_COLUMNS.filter((c) => c.field !== 'Insights').map((c) =>
      c.field === 'HighlightCount' ? { ...c, label: 'Cited highlights' } : c,
    ),
    { field: 'PublishedAt', label: 'Published at' },
    { field: 'Published', label: 'Status' },
  ],
  HIGHLIGHT: [
    { field: 'Highlight', label: 'Highlight' },
    { field: 'Note', label: 'Note' },
    { field: 'Tags', label: 'Tags' },
    { field: 'Authors', label: 'Authors' },
    { field: 'Created', label: 'Created' },
  ],
};

export interface ColumnChoice {
  field: string;
  label: string;
  /** The custom field behind it, if any. */
  info?: FieldInfo;
}

export function columnChoices(type: ViewObjectType, fields: Map<string, FieldInfo>): ColumnChoice[] {
  const custom =
    type === 'HIGHLIGHT'
      ? []
      : [...fields.values()].map((f) => ({ field: `${FIELD_PREFIX}${f.id}`, label: f.label, info: f }));
  return [...SYSTEM_COLUMNS[type], ...custom];
}

export function columnLabel(field: string, fields: Map<string, FieldInfo>, type: ViewObjectType): string {
  if (field.startsWith(FIELD_PREFIX)) return fields.get(field.slice(FIELD_PREFIX.length))?.label ?? 'Removed field';
  return SYSTEM_COLUMNS[type].find((c) => c.field === field)?.label ?? field.replace(/([a-z])([A-Z])/g, '$1 $2');
}

export const DEFAULT_WIDTH = 180;
export const TITLE_WIDTH = 320;
export const WIDTH_MIN = 40;
export const WIDTH_MAX = 2000;

/** The columns a view shows; a view that has not chosen any shows the usual ones for its type. */
export function defaultColumns(type: ViewObjectType): ViewColumn[] {
  const col = (field: string, width: number | null = null, sticky = false): ViewColumn => ({
    field,
    width,
    sticky,
    wrapped: false,
  });
  if (type === 'HIGHLIGHT') return [col('Highlight', 360, true), col('Note', 220), col('Tags', 240), col('Created')];
  return [
    col('Title', TITLE_WIDTH, true),
    ...(type === 'INSIGHT' ? [col('Published', 120)] : []),
    col('Tags', 220),
    col('Created'),
    col('Updated'),
  ];
}

export function tableColumns(view: ProjectViewData): ViewColumn[] {
  const columns = view.columns.length ? view.columns : defaultColumns(view.objectType);
  return columns.filter((c) => !view.hiddenFields.includes(c.field));
}

/** Sortable fields: what the server can order by (views/rows.ts). */
export function sortChoices(type: ViewObjectType, fields: Map<string, FieldInfo>): ColumnChoice[] {
  const system =
    type === 'HIGHLIGHT'
      ? [
          { field: 'Highlight', label: 'Highlight text' },
          { field: 'Created', label: 'Created' },
          { field: 'Updated', label: 'Updated' },
        ]
      : [
          { field: 'Title', label: 'Title' },
          { field: 'Created', label: 'Created' },
          { field: 'Updated', label: 'Updated' },
          { field: 'HighlightCount', label: type === 'INSIGHT' ? 'Cited highlights' : 'Highlights' },
          ...(type === 'INSIGHT' ? [{ field: 'Published', label: 'Published' }] : []),
          { field: 'Archived', label: 'Archived' },
        ];
  return [
    ...system,
    ...(type === 'HIGHLIGHT'
      ? []
      : [...fields.values()].map((f) => ({ field: `${FIELD_PREFIX}${f.id}`, label: f.label, info: f }))),
  ];
}
