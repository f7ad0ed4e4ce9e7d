import { describe, expect, it } from 'vitest';
import {
  columnsSchema,
  filterSchema,
  groupSchema,
  hiddenOptionsSchema,
  isFieldRef,
  sortSchema,
  viewDataProblem,
  EMPTY_VIEW_DATA,
  VIEW_LIMITS,
} from './settings.ts';

const uuid = '3f2b8c1e-9a4d-4c7b-8e21-5d6f7a8b9c0d';

describe('view settings', () => {
  it('accepts system fields and custom field ids, and nothing else', () => {
    expect(isFieldRef('Title')).toBe(true);
    expect(isFieldRef(`field.${uuid}`)).toBe(true);
    expect(isFieldRef(`personField.${uuid}`)).toBe(true);
    expect(isFieldRef(`question.${uuid}`)).toBe(true);
    expect(isFieldRef('title')).toBe(false);
    expect(isFieldRef(`thing.${uuid}`)).toBe(false);
    expect(isFieldRef('field.not-a-uuid')).toBe(false);
  });

  it('refuses a sort field twice and more than the limit', () => {
    expect(
      sortSchema.safeParse([
        { field: 'Created', direction: 'DESC' },
        { field: 'Title', direction: 'ASC' },
      ]).success,
    ).toBe(true);
    const twice = sortSchema.safeParse([
      { field: 'Created', direction: 'DESC' },
      { field: 'Created', direction: 'ASC' },
    ]);
    expect(twice.success).toBe(false);
    expect(twice.error?.issues[0]?.message).toContain('Created appears twice');
    const many = Array.from({ length: VIEW_LIMITS.sorts + 1 }, (_, i) => ({
      field: `field.${uuid.slice(0, -2)}${String(i).padStart(2, '0')}`,
      direction: 'ASC',
    }));
    expect(sortSchema.safeParse(many).error?.issues[0]?.message).toContain(`at most ${VIEW_LIMITS.sorts}`);
  });

  it('asks SELECT and PERSON groupings for a field and refuses one for the others', () => {
    expect(groupSchema.safeParse({ kind: 'SELECT' }).error?.issues[0]?.path).toEqual(['fieldId']);
    expect(groupSchema.parse({ kind: 'PERSON', fieldId: uuid })).toEqual({ kind: 'PERSON', fieldId: uuid });
    expect(groupSchema.parse({ kind: 'TAG' })).toEqual({ kind: 'TAG', fieldId: null });
    expect(groupSchema.safeParse({ kind: 'PUBLISHED', fieldId: uuid }).success).toBe(false);
  });

  it('fills column flags and bounds widths', () => {
    expect(columnsSchema.parse([{ field: 'Title' }])).toEqual([
      { field: 'Title', width: null, sticky: false, wrapped: false },
    ]);
    expect(columnsSchema.parse([{ field: 'Tags', width: 240, sticky: true, wrapped: true }])[0]).toMatchObject({
      width: 240,
      sticky: true,
      wrapped: true,
    });
    expect(columnsSchema.safeParse([{ field: 'Title', width: 10 }]).error?.issues[0]?.message).toContain('at least 40');
    expect(columnsSchema.safeParse([{ field: 'Title', width: Number.POSITIVE_INFINITY }]).success).toBe(false);
    expect(columnsSchema.safeParse([{ field: 'Title' }, { field: 'Title' }]).success).toBe(false);
  });

  it('de-duplicates hidden options and refuses empty ones', () => {
    expect(hiddenOptionsSchema.parse(['a', 'a', ' b '])).toEqual(['a', 'b']);
    expect(hiddenOptionsSchema.safeParse(['  ']).success).toBe(false);
  });

  it('stores a filter object as given, reads JSON text, and bounds its size', () => {
    const form = {
      combinator: 'and',
      forms: [{ id: 'x', field: 'Title', operator: 'contains', values: { Title: { text: 'pricing' } } }],
    };
    expect(filterSchema.parse(form)).toEqual(form);
    expect(filterSchema.parse(JSON.stringify(form))).toEqual(form);
    expect(filterSchema.parse(null)).toBeNull();
    expect(filterSchema.safeParse('{not json').error?.issues[0]?.message).toBe('The filter is not valid JSON.');
    expect(filterSchema.safeParse([1, 2]).success).toBe(false);
    expect(filterSchema.safeParse(42).success).toBe(false);
    const big = { combinator: 'and', forms: [{ text: 'x'.repeat(VIEW_LIMITS.filterChars) }] };
    expect(filterSchema.safeParse(big).error?.issues[0]?.message).toContain('100,000 characters');
  });

  it('only lets insight views group by published', () => {
    const data = { ...EMPTY_VIEW_DATA, group: { kind: 'PUBLISHED' as const, fieldId: null } };
    expect(viewDataProblem('INSIGHT', data)).toBeNull();
    expect(viewDataProblem('NOTE', data)?.field).toBe('input.group.kind');
  });
});
