import type { CustomFieldObjectType, CustomFieldRef, FilterField, SystemField } from '../fields.ts';
import { isCustomField } from '../fields.ts';
import type { SearchResultType } from '../search-types.ts';

/** A named attribute of a result; `many` marks a list (ids of tags, people, ...). */
export interface Attribute {
  name: string;
  many: boolean;
}

export interface ResultSchema {
  /** The system fields this result type has, and the attribute each reads. */
  system: Partial<Record<SystemField, Attribute>>;
  /** Whose custom fields apply: notes and insights share workspace fields (000 §3). */
  customFieldsOf: readonly CustomFieldObjectType[];
  /** What a search query matches: title, content and name, as far as the type has them (000 §7). */
  text: readonly string[];
}

const one = (name: string): Attribute => ({ name, many: false });
const many = (name: string): Attribute => ({ name, many: true });

const dates = { Created: one('createdAt'), Updated: one('updatedAt') } as const;
const tagging = { Tags: many('tagIds'), TagGroup: many('tagGroupIds'), TagBoard: many('tagBoardIds') } as const;
/** Notes, insights, highlights and tags live in a project, and so in that project's folders. */
const inProject = { Project: one('projectId'), ProjectCategory: many('folderIds') } as const;
/** What notes and insights both have. */
const researchItem = {
  ...dates,
  ...inProject,
  ...tagging,
  Title: one('title'),
  Content: one('content'),
  Starred: many('starredBy'),
  Contributors: many('contributorIds'),
  Authors: many('authorIds'),
  Highlight: many('highlightIds'),
  People: many('personIds'),
  HighlightCount: one('highlightCount'),
  AiGenerated: one('aiGenerated'),
} as const;

/**
 * Which attributes each result type has. A form on a field the type lacks reads the attribute
 * as empty (see compile-form.ts), so "Published is true" leaves out everything but insights.
 */
export const RESULT_SCHEMAS: Readonly<Record<SearchResultType, ResultSchema>> = {
  PROJECT: {
    system: {
      ...dates,
      Title: one('title'),
      Content: one('content'),
      Archived: one('archived'),
      Starred: many('starredBy'),
      Contributors: many('contributorIds'),
      Project: one('id'),
      ProjectCategory: many('folderIds'),
    },
    customFieldsOf: [],
    text: ['title', 'content'],
  },
  PROJECT_CATEGORY: {
    system: { ...dates, Title: one('title'), ProjectCategory: one('id') },
    customFieldsOf: [],
    text: ['title'],
  },
  CHANNEL: {
    system: { ...dates, Title: one('title'), Channel: one('id'), ProjectCategory: many('folderIds') },
    customFieldsOf: [],
    text: ['title'],
  },
  // A data point has no title: its text is its content, and it belongs to its channel.
  CHANNEL_DATAPOINT: {
    system: { ...dates, Content: one('content'), Channel: one('channelId'), People: many('personIds') },
    customFieldsOf: [],
    text: ['content'],
  },
  THEME: {
    system: {
      ...dates,
      Title: one('title'),
      Content: one('content'),
      Channel: one('channelId'),
      AiGenerated: one('aiGenerated'),
    },
    customFieldsOf: [],
    text: ['title', 'content'],
  },
  TAG: {
    system: {
      ...dates,
      ...inProject,
      Title: one('title'),
      Tags: one('id'),
      TagGroup: one('tagGroupId'),
      TagBoard: many('tagBoardIds'),
      Contributors: many('contributorIds'),
      HighlightCount: one('highlightCount'),
      AiGenerated: one('aiGenerated'),
    },
    customFieldsOf: [],
    text: ['title'],
  },
  NOTE: {
    system: {
      ...researchItem,
      Archived: one('archived'),
      Note: one('id'),
      Insights: many('insightIds'),
      ImportOrigin: one('importOrigin'),
    },
    customFieldsOf: ['NOTE', 'WORKSPACE'],
    text: ['title', 'content'],
  },
  INSIGHT: {
    system: { ...researchItem, Published: one('published'), Insights: one('id'), Note: many('noteIds') },
    customFieldsOf: ['INSIGHT', 'WORKSPACE'],
    text: ['title', 'content'],
  },
  HIGHLIGHT: {
    system: {
      ...dates,
      ...inProject,
      ...tagging,
      Content: one('content'),
      Contributors: many('contributorIds'),
      Highlight: one('id'),
      Note: one('noteId'),
      Insights: many('insightIds'),
      People: many('personIds'),
      AiGenerated: one('aiGenerated'),
    },
    customFieldsOf: [],
    text: ['content'],
  },
  PERSON: {
    system: {
      ...dates,
      Name: one('name'),
      People: one('id'),
      Note: many('noteIds'),
      ImportOrigin: one('importOrigin'),
      EnrichmentOrigin: one('enrichmentOrigin'),
    },
    customFieldsOf: ['PERSON'],
    text: ['name'],
  },
};

/** The attribute a field reads on a result type, or undefined when the type does not have it. */
export function attributeFor(type: SearchResultType, field: FilterField): Attribute | undefined {
  const schema = RESULT_SCHEMAS[type];
  if (!isCustomField(field)) return schema.system[field];
  return schema.customFieldsOf.includes(field.objectType) ? customAttribute(field) : undefined;
}

/** A custom field's attribute is named by its id; person and select values are lists. */
const customAttribute = (field: CustomFieldRef): Attribute => ({
  name: field.id,
  many: field.fieldType === 'PERSON' || field.fieldType === 'SELECT',
});
