import type { SystemField } from '../../src/filters/index.ts';

/**
 * The filter fields the search screen offers, with their words. Which appear depends on the
 * person's access (000 §6): project fields need projects access, people fields people access.
 * Channel fields wait for channels; AI and import origins for the features that set them.
 */
export interface OfferedField {
  field: SystemField;
  label: string;
  group: 'Content' | 'Place' | 'People and tags' | 'Dates and state';
  permission: 'projects:read' | 'people:read';
}

export const OFFERED_FIELDS: readonly OfferedField[] = [
  { field: 'Title', label: 'Title', group: 'Content', permission: 'projects:read' },
  { field: 'Content', label: 'Content', group: 'Content', permission: 'projects:read' },
  { field: 'Name', label: 'Name', group: 'Content', permission: 'people:read' },
  { field: 'Note', label: 'Note', group: 'Content', permission: 'projects:read' },
  { field: 'Insights', label: 'Insights', group: 'Content', permission: 'projects:read' },
  { field: 'Highlight', label: 'Highlight', group: 'Content', permission: 'projects:read' },
  { field: 'HighlightCount', label: 'Highlight count', group: 'Content', permission: 'projects:read' },
  { field: 'Project', label: 'Project', group: 'Place', permission: 'projects:read' },
  { field: 'ProjectCategory', label: 'Folder', group: 'Place', permission: 'projects:read' },
  { field: 'Tags', label: 'Tags', group: 'People and tags', permission: 'projects:read' },
  { field: 'TagGroup', label: 'Tag group', group: 'People and tags', permission: 'projects:read' },
  { field: 'TagBoard', label: 'Tag board', group: 'People and tags', permission: 'projects:read' },
  { field: 'Contributors', label: 'Contributors', group: 'People and tags', permission: 'projects:read' },
  { field: 'Authors', label: 'Authors', group: 'People and tags', permission: 'projects:read' },
  { field: 'People', label: 'People', group: 'People and tags', permission: 'people:read' },
  { field: 'Created', label: 'Created', group: 'Dates and state', permission: 'projects:read' },
  { field: 'Updated', label: 'Updated', group: 'Dates and state', permission: 'projects:read' },
  { field: 'Published', label: 'Published', group: 'Dates and state', permission: 'projects:read' },
  { field: 'Archived', label: 'Archived', group: 'Dates and state', permission: 'projects:read' },
  { field: 'Starred', label: 'Starred', group: 'Dates and state', permission: 'projects:read' },
];

const LABELS = new Map<string, string>(OFFERED_FIELDS.map((f) => [f.field, f.label]));
/** Fields a link may carry that this screen does not offer still get a readable name. */
const OTHER_LABELS: Partial<Record<SystemField, string>> = {
  Channel: 'Channel',
  AiGenerated: 'AI generated',
  ImportOrigin: 'Import origin',
  EnrichmentOrigin: 'Enrichment origin',
};

export const fieldLabel = (field: string): string => LABELS.get(field) ?? OTHER_LABELS[field as SystemField] ?? field;

/** The fields offered to someone holding `permissions`. */
export const offeredFields = (can: (permission: string) => boolean): OfferedField[] =>
  OFFERED_FIELDS.filter((f) => can(f.permission));
