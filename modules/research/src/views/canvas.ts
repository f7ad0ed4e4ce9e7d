import { z } from 'zod';
import { hexColorSchema } from '../colors/color-schema.ts';
import { VIEW_OBJECT_TYPES, type ViewObjectType } from './settings.ts';

/**
 * A canvas view's items and state (002 §2): rectangles, text (paragraph, H1, H2, H3), groups with
 * a title and a hex colour, and references to highlights, insights or notes at an x and y
 * position. Any item can be hidden. The canvas also keeps a staging-area position, per-object
 * ranks, expanded cards and a summary text with a peek mode.
 */
export const CANVAS_ITEM_KINDS = ['RECTANGLE', 'TEXT', 'GROUP', 'REFERENCE'] as const;
export type CanvasItemKind = (typeof CANVAS_ITEM_KINDS)[number];
export const TEXT_FORMATS = ['PARAGRAPH', 'H1', 'H2', 'H3'] as const;
export const PEEK_MODES = ['Center', 'Side', 'FullPage'] as const;

export const CANVAS_LIMITS = {
  /** Positions stay within ±1,000,000 canvas units of the origin. */
  coordinate: 1_000_000,
  size: 100_000,
  itemsPerCanvas: 5000,
  text: 10_000,
  groupTitle: 200,
  summary: 10_000,
  objectRanks: 5000,
  expandedCards: 5000,
} as const;

/** A reference card's size until it is resized (the web app draws it so). */
export const REFERENCE_CARD = { width: 240, height: 96 } as const;

const finite = (label: string) =>
  z.number({ error: `${label} must be a number.` }).refine(Number.isFinite, `${label} must be a finite number.`);

const coordinate = (label: string) =>
  finite(label)
    .min(
      -CANVAS_LIMITS.coordinate,
      `${label} must be between -${CANVAS_LIMITS.coordinate.toLocaleString('en-US')} and ${CANVAS_LIMITS.coordinate.toLocaleString('en-US')}.`,
    )
    .max(
      CANVAS_LIMITS.coordinate,
      `${label} must be between -${CANVAS_LIMITS.coordinate.toLocaleString('en-US')} and ${CANVAS_LIMITS.coordinate.toLocaleString('en-US')}.`,
    );

const size = (label: string) =>
  finite(label)
    .gt(0, `${label} must be greater than 0.`)
    .max(CANVAS_LIMITS.size, `${label} can be at most ${CANVAS_LIMITS.size.toLocaleString('en-US')}.`);

const base = { x: coordinate('x'), y: coordinate('y'), hidden: z.boolean().default(false) };
const box = { ...base, width: size('width'), height: size('height') };

/** One item as validated and stored; `strict` so a field another kind uses is refused, not dropped. */
export const canvasItemSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('RECTANGLE'), ...box }, { error: (i) => strictMessage(i, 'rectangle') }),
  z.strictObject(
    {
      kind: z.literal('TEXT'),
      ...box,
      text: z
        .string({ error: 'A text item needs its text.' })
        .max(
          CANVAS_LIMITS.text,
          `A text item can be at most ${CANVAS_LIMITS.text.toLocaleString('en-US')} characters long.`,
        ),
      format: z.enum(TEXT_FORMATS).default('PARAGRAPH'),
    },
    { error: (i) => strictMessage(i, 'text item') },
  ),
  z.strictObject(
    {
      kind: z.literal('GROUP'),
      ...box,
      title: z
        .string()
        .trim()
        .max(CANVAS_LIMITS.groupTitle, `A group title can be at most ${CANVAS_LIMITS.groupTitle} characters long.`)
        .default(''),
      color: hexColorSchema,
    },
    { error: (i) => strictMessage(i, 'group') },
  ),
  z
    .strictObject(
      {
        kind: z.literal('REFERENCE'),
        ...base,
        // The card's size once resized; left out, the usual card size.
        width: size('width').optional(),
        height: size('height').optional(),
        objectType: z.enum(VIEW_OBJECT_TYPES),
        objectId: z.uuid({ error: 'objectId must be a valid id.' }),
      },
      { error: (i) => strictMessage(i, 'reference') },
    )
    .superRefine((r, ctx) => {
      if ((r.width === undefined) !== (r.height === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: [r.width === undefined ? 'width' : 'height'],
          message: 'A reference is resized with both its width and its height.',
        });
      }
    }),
]);
export type CanvasItemInput = z.infer<typeof canvasItemSchema>;

function strictMessage(issue: { code?: string; keys?: string[] }, what: string): string | undefined {
  if (issue.code !== 'unrecognized_keys') return undefined;
  return `A ${what} has no ${(issue.keys ?? []).join(', ')}.`;
}

/** Drops the keys the client left out or sent as null, so `strictObject` only sees real values. */
export function present(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));
}

/** A stored row in the item shape, so an update can be merged in and validated as a whole. */
export interface CanvasItemRow {
  id: string;
  view_id: string;
  kind: CanvasItemKind;
  x: number;
  y: number;
  width: number | null;
  height: number | null;
  hidden: boolean;
  text: string | null;
  text_format: string | null;
  title: string | null;
  color: string | null;
  note_id: string | null;
  insight_id: string | null;
  highlight_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export function referenceOf(
  row: Pick<CanvasItemRow, 'note_id' | 'insight_id' | 'highlight_id'>,
): { objectType: ViewObjectType; objectId: string } | null {
  if (row.note_id) return { objectType: 'NOTE', objectId: row.note_id };
  if (row.insight_id) return { objectType: 'INSIGHT', objectId: row.insight_id };
  if (row.highlight_id) return { objectType: 'HIGHLIGHT', objectId: row.highlight_id };
  return null;
}

export function itemOfRow(row: CanvasItemRow): Record<string, unknown> {
  return present({
    kind: row.kind,
    x: row.x,
    y: row.y,
    hidden: row.hidden,
    width: row.width,
    height: row.height,
    text: row.text,
    format: row.text_format,
    title: row.title,
    color: row.color,
    ...referenceOf(row),
  });
}

/** The columns of a validated item. */
export function rowOfItem(item: CanvasItemInput): Omit<CanvasItemRow, 'id' | 'view_id' | 'created_at' | 'updated_at'> {
  const box = { width: item.width ?? null, height: item.height ?? null };
  return {
    kind: item.kind,
    x: item.x,
    y: item.y,
    hidden: item.hidden,
    ...box,
    text: item.kind === 'TEXT' ? item.text : null,
    text_format: item.kind === 'TEXT' ? item.format : null,
    title: item.kind === 'GROUP' ? item.title : null,
    color: item.kind === 'GROUP' ? item.color : null,
    note_id: item.kind === 'REFERENCE' && item.objectType === 'NOTE' ? item.objectId : null,
    insight_id: item.kind === 'REFERENCE' && item.objectType === 'INSIGHT' ? item.objectId : null,
    highlight_id: item.kind === 'REFERENCE' && item.objectType === 'HIGHLIGHT' ? item.objectId : null,
  };
}

/** The canvas state kept on the view (`project_views.canvas`). */
export interface CanvasState {
  stagingArea: { x: number; y: number } | null;
  objectRanks: Array<{ objectId: string; rank: number }>;
  expandedCardIds: string[];
  summary: { text: string; peekMode: (typeof PEEK_MODES)[number] } | null;
}

export const EMPTY_CANVAS: CanvasState = { stagingArea: null, objectRanks: [], expandedCardIds: [], summary: null };

export function readCanvas(stored: unknown): CanvasState {
  const data = (stored && typeof stored === 'object' ? stored : {}) as Partial<CanvasState>;
  return { ...EMPTY_CANVAS, ...data };
}

/** Each key sent replaces that part of the state; keys left out keep theirs. */
export const canvasStateSchema = z.object({
  stagingArea: z.object({ x: coordinate('stagingArea.x'), y: coordinate('stagingArea.y') }).nullish(),
  objectRanks: z
    .array(z.object({ objectId: z.uuid({ error: 'objectId must be a valid id.' }), rank: finite('A rank') }))
    .max(
      CANVAS_LIMITS.objectRanks,
      `A canvas keeps at most ${CANVAS_LIMITS.objectRanks.toLocaleString('en-US')} object ranks.`,
    )
    .superRefine((ranks, ctx) => {
      const seen = new Set<string>();
      ranks.forEach((r, i) => {
        if (seen.has(r.objectId))
          ctx.addIssue({ code: 'custom', path: [i, 'objectId'], message: `The object ${r.objectId} has two ranks.` });
        seen.add(r.objectId);
      });
    })
    .nullish(),
  expandedCardIds: z
    .array(z.uuid({ error: 'An expanded card must be a valid id.' }))
    .max(
      CANVAS_LIMITS.expandedCards,
      `A canvas keeps at most ${CANVAS_LIMITS.expandedCards.toLocaleString('en-US')} expanded cards.`,
    )
    .transform((ids) => [...new Set(ids)])
    .nullish(),
  summary: z
    .object({
      text: z
        .string()
        .max(
          CANVAS_LIMITS.summary,
          `A canvas summary can be at most ${CANVAS_LIMITS.summary.toLocaleString('en-US')} characters long.`,
        ),
      peekMode: z.enum(PEEK_MODES).default('Side'),
    })
    .nullish(),
});

export function mergeCanvas(
  current: CanvasState,
  patch: z.infer<typeof canvasStateSchema>,
  sentKeys: readonly string[],
): CanvasState {
  const next = { ...current };
  if (sentKeys.includes('stagingArea')) next.stagingArea = patch.stagingArea ?? null;
  if (sentKeys.includes('objectRanks')) next.objectRanks = patch.objectRanks ?? [];
  if (sentKeys.includes('expandedCardIds')) next.expandedCardIds = patch.expandedCardIds ?? [];
  if (sentKeys.includes('summary')) next.summary = patch.summary ?? null;
  return next;
}
