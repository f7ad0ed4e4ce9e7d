/**
 * The project export format (001 §3.7): one jsonl file per record kind and a manifest. Records
 * carry the fields the spec lists; where Fieldbook holds more than the spec names (a note's
 * highlights and people, an item's comments, a tag's board), the record carries that too, so an
 * import rebuilds the project whole. People inside the workspace are named by email, the one
 * thing that identifies them in another workspace.
 */
export const EXPORT_FILES = {
  insights: 'Insights.jsonl',
  notes: 'Notes.jsonl',
  fields: 'Fields.jsonl',
  fieldSets: 'FieldSets.jsonl',
  projectFieldPreferences: 'ProjectFieldPreferences.jsonl',
  tagBoards: 'TagBoards.jsonl',
  tagGroups: 'TagGroups.jsonl',
  tags: 'Tags.jsonl',
  files: 'Files.jsonl',
  insightFiles: 'InsightFiles.jsonl',
  projectViews: 'ProjectViews.jsonl',
  project: 'Project.jsonl',
  questions: 'Questions.jsonl',
  questionResponses: 'QuestionResponses.jsonl',
  flatFilesystemStructure: 'FlatFilesystemStructure.jsonl',
} as const;
export type ExportFileKind = keyof typeof EXPORT_FILES;
export const MANIFEST_FILE = 'Manifest.json';
export const EXPORT_FORMAT_VERSION = 1;

/** Every name an archive may hold; anything else in an uploaded archive is ignored. */
export const ARCHIVE_NAMES: ReadonlySet<string> = new Set([...Object.values(EXPORT_FILES), MANIFEST_FILE]);

export const UPLOAD_STATUSES = ['UPLOADING', 'COMPLETE', 'FAILED'] as const;
export type UploadStatus = (typeof UPLOAD_STATUSES)[number];

export interface Manifest {
  formatVersion: number;
  exportedAt: string;
  files: Array<{ filepath: string; uploadStatus: UploadStatus; records: number }>;
  config: { title: string; projectCategoryIds: string[]; projectIds: string[] };
}

/** The id-mapping sets of 001 §3.7, plus the other things an import gives new ids. */
export const ID_MAPPING_KINDS = [
  'fields',
  'files',
  'fieldSets',
  'highlights',
  'insights',
  'notes',
  'tagBoards',
  'tagGroups',
  'tags',
  'projects',
  'projectCategories',
  'fieldOptions',
  'people',
  'comments',
  'projectViews',
] as const;
export type IdMappingKind = (typeof ID_MAPPING_KINDS)[number];

export const PROJECT_SECTION_FLAGS = {
  CHARTS: 'charts',
  HIGHLIGHTS: 'highlights',
  INSIGHTS: 'insights',
  NOTES: 'notes',
  README: 'readme',
  TAGS: 'tags',
} as const;
export type ProjectSection = keyof typeof PROJECT_SECTION_FLAGS;

/** Which sections a project shows, in order, as the export's enabled flags and ranks. */
export function sectionFlags(enabled: readonly string[] | null): Record<string, boolean | number> {
  const out: Record<string, boolean | number> = {};
  const order = (enabled ?? []).filter((s): s is ProjectSection => s in PROJECT_SECTION_FLAGS);
  (Object.keys(PROJECT_SECTION_FLAGS) as ProjectSection[]).forEach((section, i) => {
    const flag = PROJECT_SECTION_FLAGS[section];
    const at = order.indexOf(section);
    out[`${flag}Enabled`] = at !== -1;
    out[`${flag}Rank`] = at !== -1 ? at : order.length + i;
  });
  return out;
}

/** The enabled sections, in order, back from the flags and ranks. */
export function sectionsFromFlags(record: Record<string, unknown>): ProjectSection[] {
  return (Object.keys(PROJECT_SECTION_FLAGS) as ProjectSection[])
    .map((section, i) => {
      const flag = PROJECT_SECTION_FLAGS[section];
      const rank = record[`${flag}Rank`];
      return { section, enabled: record[`${flag}Enabled`] === true, rank: typeof rank === 'number' ? rank : i };
    })
    .filter((s) => s.enabled)
    .sort((a, b) => a.rank - b.rank)
    .map((s) => s.section);
}

/** A field set's id: one object type, of the project or of the workspace. */
export const fieldSetId = (objectType: string, projectId: string | null): string =>
  `${projectId ?? 'workspace'}:${objectType}`;

export interface PersonRecord {
  id: string;
  name: string;
  email: string | null;
  company: string | null;
  title: string | null;
  avatarUrl: string | null;
}

export interface HighlightRecord {
  id: string;
  text: string;
  startOffset: number;
  endOffset: number;
  color: string | null;
  tagIds: string[];
  people: PersonRecord[];
  createdBy: string | null;
  createdAt: string;
}

export interface CommentRecord {
  id: string;
  body: string;
  /** Who each `@[Name](userId)` of the body is, by email. */
  mentions: Array<{ userId: string; email: string }>;
  createdBy: string | null;
  createdAt: string;
  editedAt: string | null;
}

export interface FieldDatum {
  fieldId: string;
  /** Select values are option ids; person values are emails. */
  value: unknown;
}

/** Insight and note records share this shape (001 §3.7: a note is an insight plus summaries). */
export interface DocumentRecord {
  id: string;
  title: string;
  locked: boolean;
  richText: unknown;
  fieldDatum: FieldDatum[];
  fileId: string | null;
  published: boolean;
  publishedAt: string | null;
  archived: boolean;
  rank: number;
  highlights: HighlightRecord[];
  comments: CommentRecord[];
  createdBy: string | null;
  updatedBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface NoteRecord extends DocumentRecord {
  summaryContent: unknown;
  summaryFramework: string | null;
  summaryLanguage: string | null;
  people: PersonRecord[];
}

export interface InsightRecord extends DocumentRecord {
  summary: unknown;
  /** Highlights of the project's notes that the insight cites (ids of Notes.jsonl highlights). */
  citedHighlightIds: string[];
}

/** Serialises one record as a jsonl line. */
export const line = (record: unknown): string => `${JSON.stringify(record)}\n`;
