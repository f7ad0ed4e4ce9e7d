import { RESULT_SCHEMAS, SEARCH_RESULT_TYPES, type SearchResultType } from '../../filters/index.ts';

/**
 * How search documents are laid out in Typesense: one collection per result type, shared by every
 * workspace (each document carries `workspaceId`, and every search filters on it).
 *
 * Emptiness: Typesense cannot filter on a missing field, so each document lists the attributes
 * that hold a value in `filledAttributes` (a string[] companion field, never empty because `id`
 * is always filled). "Empty" compiles to `filledAttributes:!=`attr`` and "not empty" to
 * `filledAttributes:=`attr``; this covers custom fields too without knowing them in advance.
 */
export type AttributeKind = 'text' | 'id' | 'ids' | 'number' | 'boolean' | 'time';

/** The kind of every system attribute `RESULT_SCHEMAS` names (a unit test keeps them in step). */
export const SYSTEM_ATTRIBUTE_KINDS: Readonly<Record<string, AttributeKind>> = {
  title: 'text',
  content: 'text',
  name: 'text',
  importOrigin: 'text',
  enrichmentOrigin: 'text',
  id: 'id',
  projectId: 'id',
  noteId: 'id',
  channelId: 'id',
  tagGroupId: 'id',
  folderIds: 'ids',
  tagIds: 'ids',
  tagGroupIds: 'ids',
  tagBoardIds: 'ids',
  starredBy: 'ids',
  contributorIds: 'ids',
  authorIds: 'ids',
  highlightIds: 'ids',
  personIds: 'ids',
  insightIds: 'ids',
  noteIds: 'ids',
  highlightCount: 'number',
  archived: 'boolean',
  published: 'boolean',
  aiGenerated: 'boolean',
  createdAt: 'time',
  updatedAt: 'time',
};

/** The companion listing which attributes hold a value. */
export const FILLED = 'filledAttributes';
/** Titles (or names) lower-cased without accents, so sorting reads them as people do. */
export const TITLE_SORT = 'titleSort';
/** When a document was written (epoch ms), so a full reindex can drop what it did not write. */
export const INDEXED_AT = 'indexedAt';

/** Typesense's own `id` is the document id; the `id` attribute is filtered through a field of its own. */
const RENAMED: Readonly<Record<string, string>> = { id: 'itemId' };

/** The Typesense field a system attribute is stored in. */
export const systemField = (attribute: string): string => RENAMED[attribute] ?? attribute;

const CUSTOM_ATTRIBUTE =
  /^(?:field|question|personField)\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The field id of a custom attribute (`field.<uuid>`, `question.<uuid>`, `personField.<uuid>`). */
export function customFieldId(attribute: string): string | null {
  const match = CUSTOM_ATTRIBUTE.exec(attribute);
  return match ? match[1]!.toLowerCase() : null;
}

/**
 * Custom field values have no fixed type, so each value is stored in typed fields by its shape:
 * `_s` text, `_n` number, `_b` boolean, `_t` a date as epoch milliseconds, `_l` a list of ids,
 * and `_o` a number to sort by (the number, the date, or 1/0). Filters pick the field by the
 * predicate's value, as the PostgreSQL engine picks its cast.
 */
export type CustomSuffix = 's' | 'n' | 'b' | 't' | 'l' | 'o';
export const customField = (fieldId: string, suffix: CustomSuffix): string =>
  `cf_${fieldId.replace(/-/g, '')}_${suffix}`;
/** The name the companion lists a custom attribute under, whichever prefix named it. */
export const customFilledName = (fieldId: string): string => `cf_${fieldId.replace(/-/g, '')}`;

/** Whether a result type has an attribute (custom ones only where the type has custom fields). */
export function attributeKind(type: SearchResultType, attribute: string): AttributeKind | 'custom' | null {
  const schema = RESULT_SCHEMAS[type];
  if (customFieldId(attribute) !== null) return schema.customFieldsOf.length > 0 ? 'custom' : null;
  const has = Object.values(schema.system).some((a) => a?.name === attribute) || BASE_ATTRIBUTES.includes(attribute);
  return has ? (SYSTEM_ATTRIBUTE_KINDS[attribute] ?? null) : null;
}

/** Every document has these, whatever its type's filter fields. */
const BASE_ATTRIBUTES: readonly string[] = ['id', 'createdAt', 'updatedAt'];

/** The system attributes a type's documents carry. */
export function systemAttributes(type: SearchResultType): string[] {
  const names = new Set<string>(BASE_ATTRIBUTES);
  for (const attribute of Object.values(RESULT_SCHEMAS[type].system)) if (attribute) names.add(attribute.name);
  return [...names];
}

/** Result types whose items may live outside every project (folders, people, workspace tags, ...). */
export const MAY_LACK_PROJECT: readonly SearchResultType[] = ['PROJECT_CATEGORY', 'CHANNEL', 'THEME', 'PERSON', 'TAG'];

export interface CollectionField {
  name: string;
  type: 'string' | 'string[]' | 'int64' | 'float' | 'bool';
  optional?: boolean;
  facet?: boolean;
  sort?: boolean;
  index?: boolean;
}

export interface CollectionSchema {
  name: string;
  fields: CollectionField[];
  default_sorting_field: string;
}

const TYPESENSE_TYPES: Record<AttributeKind, CollectionField['type']> = {
  text: 'string',
  id: 'string',
  ids: 'string[]',
  number: 'float',
  boolean: 'bool',
  time: 'int64',
};

/** Text Typesense searches with `q`: title (or name) and content. */
export const SEARCHED_TEXT: readonly string[] = ['title', 'content', 'name'];

/** The collection of a result type, e.g. `fieldbook_note`. */
export const collectionName = (prefix: string, type: SearchResultType): string => `${prefix}${type.toLowerCase()}`;

export function collectionSchema(prefix: string, type: SearchResultType): CollectionSchema {
  const fields: CollectionField[] = [
    { name: 'workspaceId', type: 'string', facet: true },
    { name: 'projectId', type: 'string', optional: true, facet: true },
    { name: 'projectTitle', type: 'string', optional: true, index: false },
    { name: 'title', type: 'string' },
    { name: TITLE_SORT, type: 'string', sort: true },
    { name: FILLED, type: 'string[]', facet: true },
    { name: INDEXED_AT, type: 'int64', optional: true },
  ];
  const declared = new Set(fields.map((f) => f.name));
  for (const attribute of systemAttributes(type)) {
    const name = systemField(attribute);
    if (declared.has(name)) continue;
    declared.add(name);
    const kind = SYSTEM_ATTRIBUTE_KINDS[attribute]!;
    const field: CollectionField = { name, type: TYPESENSE_TYPES[kind] };
    // Everything but the stamps may be unset; ids are facets so filters and counts on them are cheap.
    if (kind !== 'time' && name !== 'itemId') field.optional = true;
    if (kind === 'id' || kind === 'ids') field.facet = true;
    if (kind === 'time' || kind === 'number') field.sort = true;
    fields.push(field);
  }
  if (RESULT_SCHEMAS[type].customFieldsOf.length > 0) {
    // Regular-expression field names: custom fields come and go without a schema change.
    fields.push(
      { name: 'cf_.*_s', type: 'string', optional: true },
      { name: 'cf_.*_n', type: 'float', optional: true },
      { name: 'cf_.*_b', type: 'bool', optional: true },
      { name: 'cf_.*_t', type: 'int64', optional: true },
      { name: 'cf_.*_l', type: 'string[]', optional: true, facet: true },
      { name: 'cf_.*_o', type: 'float', optional: true, sort: true },
    );
  }
  return { name: collectionName(prefix, type), fields, default_sorting_field: 'updatedAt' };
}

export const allCollectionSchemas = (prefix: string): CollectionSchema[] =>
  SEARCH_RESULT_TYPES.map((type) => collectionSchema(prefix, type));
