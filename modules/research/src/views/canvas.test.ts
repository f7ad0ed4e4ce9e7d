import { describe, expect, it } from 'vitest';
import {
  canvasItemSchema,
  canvasStateSchema,
  itemOfRow,
  mergeCanvas,
  present,
  rowOfItem,
  EMPTY_CANVAS,
  type CanvasItemRow,
} from './canvas.ts';

const uuid = '3f2b8c1e-9a4d-4c7b-8e21-5d6f7a8b9c0d';

describe('canvas items', () => {
  it('validates each kind with its own fields', () => {
    expect(canvasItemSchema.parse({ kind: 'RECTANGLE', x: 1, y: -2, width: 10, height: 20 })).toEqual({
      kind: 'RECTANGLE',
      x: 1,
      y: -2,
      width: 10,
      height: 20,
      hidden: false,
    });
    expect(canvasItemSchema.parse({ kind: 'TEXT', x: 0, y: 0, width: 5, height: 5, text: 'Hello' })).toMatchObject({
      format: 'PARAGRAPH',
    });
    expect(
      canvasItemSchema.parse({ kind: 'GROUP', x: 0, y: 0, width: 5, height: 5, title: ' Pains ', color: '#36d' }),
    ).toMatchObject({ title: 'Pains', color: '#3366dd' });
    expect(canvasItemSchema.parse({ kind: 'REFERENCE', x: 3, y: 4, objectType: 'NOTE', objectId: uuid })).toMatchObject(
      { objectType: 'NOTE', objectId: uuid },
    );
  });

  it('refuses fields of another kind, missing sizes, bad numbers and bad colours', () => {
    const text = canvasItemSchema.safeParse({ kind: 'RECTANGLE', x: 0, y: 0, width: 1, height: 1, text: 'no' });
    expect(text.error?.issues[0]?.message).toBe('A rectangle has no text.');
    expect(
      canvasItemSchema.safeParse({ kind: 'REFERENCE', x: 0, y: 0, width: 3, objectType: 'NOTE', objectId: uuid }).error
        ?.issues[0]?.message,
    ).toBe('A reference is resized with both its width and its height.');
    expect(
      canvasItemSchema.parse({
        kind: 'REFERENCE',
        x: 0,
        y: 0,
        width: 300,
        height: 120,
        objectType: 'NOTE',
        objectId: uuid,
      }),
    ).toMatchObject({ width: 300, height: 120 });
    expect(
      canvasItemSchema.safeParse({
        kind: 'REFERENCE',
        x: 0,
        y: 0,
        width: 300,
        height: 0,
        objectType: 'NOTE',
        objectId: uuid,
      }).success,
    ).toBe(false);
    expect(canvasItemSchema.safeParse({ kind: 'RECTANGLE', x: 0, y: 0, width: 1 }).success).toBe(false);
    expect(canvasItemSchema.safeParse({ kind: 'RECTANGLE', x: Number.NaN, y: 0, width: 1, height: 1 }).success).toBe(
      false,
    );
    expect(
      canvasItemSchema.safeParse({ kind: 'RECTANGLE', x: 0, y: 0, width: 0, height: 1 }).error?.issues[0]?.message,
    ).toBe('width must be greater than 0.');
    expect(
      canvasItemSchema.safeParse({ kind: 'RECTANGLE', x: 2_000_000, y: 0, width: 1, height: 1 }).error?.issues[0]
        ?.message,
    ).toContain('between');
    expect(canvasItemSchema.safeParse({ kind: 'GROUP', x: 0, y: 0, width: 1, height: 1, color: 'blue' }).success).toBe(
      false,
    );
    expect(
      canvasItemSchema.safeParse({ kind: 'TEXT', x: 0, y: 0, width: 1, height: 1, text: 'x'.repeat(10_001) }).success,
    ).toBe(false);
  });

  it('round-trips a row so an update can be merged and validated whole', () => {
    const item = canvasItemSchema.parse({
      kind: 'REFERENCE',
      x: 3,
      y: 4,
      hidden: true,
      objectType: 'INSIGHT',
      objectId: uuid,
    });
    const row = {
      id: 'i',
      view_id: 'v',
      created_at: new Date(),
      updated_at: new Date(),
      ...rowOfItem(item),
    } as CanvasItemRow;
    expect(row.insight_id).toBe(uuid);
    expect(row.width).toBeNull();
    const merged = canvasItemSchema.parse({ ...itemOfRow(row), ...present({ x: 10, y: null }) });
    expect(merged).toEqual({ ...item, x: 10 });
  });
});

describe('canvas state', () => {
  it('replaces only the keys sent', () => {
    const current = { ...EMPTY_CANVAS, expandedCardIds: [uuid], summary: { text: 'old', peekMode: 'Side' as const } };
    const patch = canvasStateSchema.parse({
      stagingArea: { x: 1, y: 2 },
      summary: { text: 'new', peekMode: 'FullPage' },
    });
    const next = mergeCanvas(current, patch, ['stagingArea', 'summary']);
    expect(next).toEqual({
      stagingArea: { x: 1, y: 2 },
      objectRanks: [],
      expandedCardIds: [uuid],
      summary: { text: 'new', peekMode: 'FullPage' },
    });
  });

  it('refuses two ranks for one object and non-finite ranks', () => {
    expect(
      canvasStateSchema.safeParse({
        objectRanks: [
          { objectId: uuid, rank: 1 },
          { objectId: uuid, rank: 2 },
        ],
      }).success,
    ).toBe(false);
    expect(
      canvasStateSchema.safeParse({ objectRanks: [{ objectId: uuid, rank: Number.POSITIVE_INFINITY }] }).success,
    ).toBe(false);
    expect(canvasStateSchema.safeParse({ summary: { text: 'x', peekMode: 'Corner' } }).success).toBe(false);
  });
});
