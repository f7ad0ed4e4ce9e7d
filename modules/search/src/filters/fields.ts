/** The fields a filter form can test (000 §3). */
export const SYSTEM_FIELDS = [
  'Archived',
  'Content',
  'Contributors',
  'Created',
  'HighlightCount',
  'Insights',
  'Name',
  'Note',
  'People',
  'ProjectCategory',
  'Project',
  'Published',
  'Starred',
  'TagBoard',
  'TagGroup',
  'Tags',
  'Title',
  'Updated',
  'Authors',
  'Highlight',
  'Channel',
  'AiGenerated',
  'ImportOrigin',
  'EnrichmentOrigin',
] as const;
export type SystemField = (typeof SYSTEM_FIELDS)[number];

/** Custom field types (000 §3). */
export const CUSTOM_FIELD_TYPES = [
  'ARR',
  'BOOLEAN',
  'CSAT',
  'DATETIME',
  'EMAIL',
  'NPS',
  'NUMBER',
  'PERSON',
  'PHONE',
  'RATING',
  'SELECT',
  'TEXT',
  'URL',
] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** Which objects a custom field belongs to: note, insight, person or workspace fields (000 §3). */
export const CUSTOM_FIELD_OBJECT_TYPES = ['NOTE', 'INSIGHT', 'PERSON', 'WORKSPACE'] as const;
export type CustomFieldObjectType = (typeof CUSTOM_FIELD_OBJECT_TYPES)[number];

export const CUSTOM_FIELD_PREFIXES = ['field', 'question', 'personField'] as const;
export type CustomFieldPrefix = (typeof CUSTOM_FIELD_PREFIXES)[number];
export type CustomFieldId = `${CustomFieldPrefix}.${string}`;

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CUSTOM_FIELD_ID =
  /^(field|question|personField)\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** A custom field as a filter form names it: its id, its type and whose field it is. */
export interface CustomFieldRef {
  id: CustomFieldId;
  fieldType: CustomFieldType;
  objectType: CustomFieldObjectType;
  /** For select fields, how many options a value may hold; 1 makes it a single select. */
  max?: number;
}

export type FilterField = SystemField | CustomFieldRef;

export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
export const isSystemField = (value: unknown): value is SystemField =>
  typeof value === 'string' && (SYSTEM_FIELDS as readonly string[]).includes(value);
export const isCustomFieldId = (value: unknown): value is CustomFieldId =>
  typeof value === 'string' && CUSTOM_FIELD_ID.test(value);
export const isCustomField = (field: FilterField): field is CustomFieldRef => typeof field !== 'string';

/** The key a form's values are stored under: the system field's name or the custom field's id. */
export const fieldKey = (field: FilterField): string => (isCustomField(field) ? field.id : field);

export const isSelectField = (field: FilterField): boolean => isCustomField(field) && field.fieldType === 'SELECT';
export const isSingleSelect = (field: FilterField): boolean =>
  isSelectField(field) && (field as CustomFieldRef).max === 1;

/** People's own fields carry the `personField.` prefix. */
export const isPersonObjectField = (field: FilterField): boolean =>
  isCustomField(field) && field.objectType === 'PERSON';
