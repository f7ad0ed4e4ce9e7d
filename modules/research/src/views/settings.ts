import { z } from 'zod';
import { isCustomFieldId, isSystemField } from '@fieldbook/search/filters';

/**
 * The saved settings of a project view (002 §2): sort, filter, grouping, columns, hidden fields
 * and hidden options. Pure rules; the resolvers add the checks that need the database.
 */
export const VIEW_LAYOUTS = ['BOARD', 'CANVAS', 'GRID', 'LIST', 'TABLE'] as const;
export type ViewLayout = (typeof VIEW_LAYOUTS)[number];
export const VIEW_OBJECT_TYPES = ['HIGHLIGHT', 'INSIGHT', 'NOTE'] as const;
export type ViewObjectType = (typeof VIEW_OBJECT_TYPES)[number];
export const GROUP_KINDS = ['SELECT', 'PERSON', 'PUBLISHED', 'TAG'] as const;
export type GroupKind = (typeof GROUP_KINDS)[number];

export const VIEW_LIMITS = {
  title: 200,
  viewsPerProject: 100,
  sorts: 10,
  columns: 100,
  hiddenFields: 100,
  /** As many as a select field may have options (000 §9). */
  hiddenOptions: 750,
  hiddenOption: 100,
  columnWidthMin: 40,
  columnWidthMax: 2000,
  /** Characters of the filter form serialised as JSON. */
  filterChars: 100_000,
} as const;

export function isFieldRef(value: string): boolean {
  return isSystemField(value) || isCustomFieldId(value);
}

/**
 * Columns a view shows that no filter tests (002 §2): a note's thumbnail and summary, and when an
 * insight was published (its status is the Published field).
 */
export const VIEW_ONLY_COLUMNS = ['Thumbnail', 'Summary', 'PublishedAt'] as const;

/** What a column, a sort or a hidden field may name: a field, or one of the view-only columns. */
export function isColumnRef(value: string): boolean {
  return isFieldRef(value) || (VIEW_ONLY_COLUMNS as readonly string[]).includes(value);
}

const fieldRef = (label: string) =>
  z.string({ error: `${label} must name a field.` }).refine(isColumnRef, {
    message: `${label} must be a system field (such as Title, Created, Tags, Thumbnail or Summary) or a custom field id such as field.<uuid>.`,
  });

const unique =
  <T>(key: (item: T) => string, what: string) =>
  (items: T[], ctx: z.RefinementCtx) => {
    const seen = new Set<string>();
    items.forEach((item, i) => {
      const k = key(item);
      if (seen.has(k)) ctx.addIssue({ code: 'custom', path: [i], message: `${what} ${k} appears twice.` });
      seen.add(k);
    });
  };

export const sortSchema = z
  .array(z.object({ field: fieldRef('A sort field'), direction: z.enum(['ASC', 'DESC']) }))
  .max(VIEW_LIMITS.sorts, `A view can sort by at most ${VIEW_LIMITS.sorts} fields.`)
  .superRefine(unique((s) => s.field, 'The sort field'));

export const groupSchema = z
  .object({ kind: z.enum(GROUP_KINDS), fieldId: z.uuid({ error: 'fieldId must be a valid id.' }).nullish() })
  .superRefine((g, ctx) => {
    const needsField = g.kind === 'SELECT' || g.kind === 'PERSON';
    if (needsField && !g.fieldId)
      ctx.addIssue({
        code: 'custom',
        path: ['fieldId'],
        message: `Grouping by ${g.kind.toLowerCase()} needs the field to group by.`,
      });
    if (!needsField && g.fieldId)
      ctx.addIssue({
        code: 'custom',
        path: ['fieldId'],
        message: `Grouping by ${g.kind.toLowerCase()} takes no field.`,
      });
  })
  .transform((g) => ({ kind: g.kind, fieldId: g.fieldId ?? null }));

const columnWidth = z
  .number()
  .refine(Number.isFinite, 'A column width must be a finite number.')
  .min(VIEW_LIMITS.columnWidthMin, `A column is at least ${VIEW_LIMITS.columnWidthMin} pixels wide.`)
  .max(VIEW_LIMITS.columnWidthMax, `A column is at most ${VIEW_LIMITS.columnWidthMax} pixels wide.`);

export const columnsSchema = z
  .array(
    z
      .object({
        field: fieldRef('A column'),
        width: columnWidth.nullish(),
        sticky: z.boolean().nullish(),
        wrapped: z.boolean().nullish(),
      })
      .transform((c) => ({
        field: c.field,
        width: c.width ?? null,
        sticky: c.sticky ?? false,
        wrapped: c.wrapped ?? false,
      })),
  )
  .max(VIEW_LIMITS.columns, `A view can show at most ${VIEW_LIMITS.columns} columns.`)
  .superRefine(unique((c) => c.field, 'The column'));

export const hiddenFieldsSchema = z
  .array(fieldRef('A hidden field'))
  .max(VIEW_LIMITS.hiddenFields, `A view can hide at most ${VIEW_LIMITS.hiddenFields} fields.`)
  .transform((fields) => [...new Set(fields)]);

export const hiddenOptionsSchema = z
  .array(
    z
      .string()
      .trim()
      .min(1, 'A hidden option cannot be empty.')
      .max(VIEW_LIMITS.hiddenOption, `A hidden option is at most ${VIEW_LIMITS.hiddenOption} characters long.`),
  )
  .max(VIEW_LIMITS.hiddenOptions, `A view can hide at most ${VIEW_LIMITS.hiddenOptions} options.`)
  .transform((options) => [...new Set(options)]);

/**
 * The filter form of 000 §3, stored as given: a JSON object (or JSON text of one, 002 §5) of at
 * most 100,000 characters. Null clears it.
 */
export const filterSchema = z.unknown().transform((value, ctx): Record<string, unknown> | null => {
  if (value === null || value === undefined) return null;
  let parsed = value;
  if (typeof value === 'string') {
    if (value.length > VIEW_LIMITS.filterChars) {
      ctx.addIssue({
        code: 'custom',
        message: `A filter can be at most ${VIEW_LIMITS.filterChars.toLocaleString('en-US')} characters of JSON.`,
      });
      return z.NEVER;
    }
    try {
      parsed = JSON.parse(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'The filter is not valid JSON.' });
      return z.NEVER;
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    ctx.addIssue({
      code: 'custom',
      message: 'A filter is a JSON object (a filter form with a combinator and field forms).',
    });
    return z.NEVER;
  }
  if (JSON.stringify(parsed).length > VIEW_LIMITS.filterChars) {
    ctx.addIssue({
      code: 'custom',
      message: `A filter can be at most ${VIEW_LIMITS.filterChars.toLocaleString('en-US')} characters of JSON.`,
    });
    return z.NEVER;
  }
  return parsed as Record<string, unknown>;
});

/** The settings as stored in `project_views.view_data`. */
export interface ViewData {
  sort: Array<{ field: string; direction: 'ASC' | 'DESC' }>;
  filter: Record<string, unknown> | null;
  group: { kind: GroupKind; fieldId: string | null } | null;
  columns: Array<{ field: string; width: number | null; sticky: boolean; wrapped: boolean }>;
  hiddenFields: string[];
  hiddenOptions: string[];
  hideUncategorized: boolean;
}

export const EMPTY_VIEW_DATA: ViewData = {
  sort: [],
  filter: null,
  group: null,
  columns: [],
  hiddenFields: [],
  hiddenOptions: [],
  hideUncategorized: false,
};

/** The stored settings with defaults for anything missing (rows written by an older version). */
export function readViewData(stored: unknown): ViewData {
  const data = (stored && typeof stored === 'object' ? stored : {}) as Partial<ViewData>;
  return { ...EMPTY_VIEW_DATA, ...data };
}

/** Rules across settings that a single field's schema cannot see. */
export function viewDataProblem(objectType: ViewObjectType, data: ViewData): { field: string; message: string } | null {
  if (data.group?.kind === 'PUBLISHED' && objectType !== 'INSIGHT') {
    return { field: 'input.group.kind', message: 'Only insight views can be grouped by published.' };
  }
  return null;
}
