import { z } from 'zod';
import { RICH_TEXT_MAX, richTextProblem } from '../notes/rich-text.ts';
import { UPLOAD_STATUSES } from './format.ts';

/**
 * What an import accepts of each record: the limits of 000 §9 and the shapes the export writes.
 * A record that breaks them fails the whole import with the file, line and field named.
 */
const id = z.string().min(1).max(100);
const hex = z.string().regex(/^#[0-9a-f]{6}$/, 'must be a colour such as #3e63dd');
const optionalHex = hex.nullable().optional().default(null);
const text = (max: number) => z.string().max(max, `can be at most ${max} characters long`);
const title = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `can be at most ${max} characters long`);
const email = z.string().max(320).nullable().optional().default(null);
const date = z.iso.datetime({ offset: true });
const richText = z
  .custom<Record<string, unknown>>(
    (v) =>
      typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { type?: unknown }).type === 'string',
    {
      message: 'must be a rich text document',
    },
  )
  .superRefine((v, ctx) => {
    const problem = richTextProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .refine((v) => JSON.stringify(v).length <= RICH_TEXT_MAX, 'can be at most 5,000,000 characters (serialised)')
  .nullable()
  .optional()
  .default(null);
const rank = z.number().finite().default(0);

export const manifestSchema = z.object({
  formatVersion: z.literal(1, 'is not a version this Fieldbook can read'),
  files: z.array(
    z.object({
      filepath: z.string(),
      uploadStatus: z.enum(UPLOAD_STATUSES),
      records: z.number().int().min(0).optional(),
    }),
  ),
  config: z.object({ title: z.string(), projectCategoryIds: z.array(z.string()), projectIds: z.array(z.string()) }),
});

const level = z.enum(['none', 'read', 'write', 'full']);

export const projectSchema = z
  .object({
    id,
    title: title(200),
    status: z.enum(['ACTIVE', 'ARCHIVED', 'COMPLETED']).default('ACTIVE'),
    color: optionalHex,
    icon: text(100).nullable().optional().default(null),
    readme: richText,
    projectCategoryId: id.nullable().optional().default(null),
    access: z
      .object({
        groups: z.partialRecord(z.enum(['markup', 'public', 'playback']), level).default({}),
        users: z.array(z.object({ email: z.string(), level })).default([]),
      })
      .default({ groups: {}, users: [] }),
  })
  .loose();

export const folderSchema = z.object({
  projectCategoryId: id,
  name: title(200),
  parentId: id.nullable(),
  projects: z.array(id).default([]),
});

export const tagBoardSchema = z.object({
  id,
  rank,
  title: title(50),
  description: text(2000).nullable().optional().default(null),
  scope: z.enum(['PROJECT', 'WORKSPACE']).default('PROJECT'),
});
export const tagGroupSchema = z.object({
  id,
  tagBoardId: id,
  color: optionalHex,
  rank,
  title: title(50),
  description: text(2000).nullable().optional().default(null),
});
export const tagSchema = z.object({
  id,
  tagBoardId: id,
  tagGroupId: id.nullable().optional().default(null),
  color: hex,
  rank,
  title: title(200),
  locked: z.boolean().default(false),
  description: text(2000).nullable().optional().default(null),
});

export const fieldSetSchema = z.object({
  id,
  objectType: z.enum(['NOTE', 'INSIGHT', 'WORKSPACE']),
  scope: z.enum(['PROJECT', 'WORKSPACE']),
});
export const fieldSchema = z.object({
  id,
  fieldSetId: id,
  label: title(250),
  type: z.enum([
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
  ]),
  rank,
  config: z.record(z.string(), z.unknown()).default({}),
  options: z
    // More than 750 are read, and those past 750 left out on import (000 §5 keeps at most 750).
    .array(
      z.object({ id, label: title(50), displayLabel: text(50).nullable().optional().default(null), color: hex, rank }),
    )
    .default([]),
});

export const projectViewSchema = z.object({
  id,
  layout: z.enum(['BOARD', 'CANVAS', 'GRID', 'LIST', 'TABLE']),
  objectType: z.enum(['HIGHLIGHT', 'INSIGHT', 'NOTE']),
  rank,
  title: title(200),
  viewData: z.record(z.string(), z.unknown()).default({}),
});

const person = z.object({
  id,
  name: title(300),
  email,
  company: text(200).nullable().optional().default(null),
  title: text(200).nullable().optional().default(null),
  avatarUrl: text(3000).nullable().optional().default(null),
});
export type ImportedPerson = z.infer<typeof person>;

const highlight = z
  .object({
    id,
    text: z.string().max(RICH_TEXT_MAX),
    startOffset: z.number().int().min(0),
    endOffset: z.number().int().min(1),
    color: optionalHex,
    tagIds: z.array(id).default([]),
    people: z.array(person).default([]),
    createdBy: email,
    createdAt: date,
  })
  .refine((h) => h.startOffset < h.endOffset, 'endOffset must be greater than startOffset');

const comment = z.object({
  id,
  body: title(10_000),
  mentions: z.array(z.object({ userId: z.string(), email: z.string() })).default([]),
  createdBy: email,
  createdAt: date,
  editedAt: date.nullable().optional().default(null),
});

const fieldValue = z.union([
  z.string().max(10_299),
  z.number().finite(),
  z.boolean(),
  z.array(z.string().max(320)).max(750),
]);

const documentFields = {
  id,
  title: z.string().max(200, 'can be at most 200 characters long').default(''),
  locked: z.boolean().default(false),
  richText,
  fieldDatum: z.array(z.object({ fieldId: id, value: fieldValue })).default([]),
  archived: z.boolean().default(false),
  rank,
  highlights: z.array(highlight).default([]),
  comments: z.array(comment).default([]),
  createdBy: email,
  updatedBy: email,
  createdAt: date,
  updatedAt: date,
};

export const noteSchema = z.object({ ...documentFields, people: z.array(person).default([]) });
export const insightSchema = z.object({
  ...documentFields,
  published: z.boolean().default(false),
  publishedAt: date.nullable().optional().default(null),
  summary: richText,
  citedHighlightIds: z.array(id).default([]),
});
export type ImportedDocument = z.infer<typeof noteSchema> &
  Partial<Pick<z.infer<typeof insightSchema>, 'published' | 'publishedAt' | 'summary' | 'citedHighlightIds'>>;

/** The first problem of a record, as people read it: the field's path and what is wrong. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'is not valid';
  const path = issue.path.length ? issue.path.join('.') : 'the record';
  return `${path} ${issue.message}`;
}
