import { describe, expect, it } from 'vitest';
import { defaultFilterForm, isDefaultFilter, withDefaultForms } from './defaults.ts';
import { FilterError } from './errors.ts';
import { changeField, dropBlankForms, formCounts, type FieldForm, type FilterForm } from './form.ts';
import { assertShareable, isEmptyFilter, normalizeFilter } from './normalize.ts';
import { customField, thrown, uuid } from './test-fields.ts';

const form = (partial: Partial<FieldForm> & Pick<FieldForm, 'field'>): FieldForm => ({
  id: 'f1',
  operator: null,
  values: {},
  ...partial,
});

describe('changing a form’s field (000 §4)', () => {
  const titleContains = form({ field: 'Title', operator: 'contains', values: { Title: { text: 'pricing' } } });

  it('clears operator and values when the new field is a select', () => {
    expect(changeField(titleContains, customField('SELECT'))).toEqual({
      id: 'f1',
      field: customField('SELECT'),
      operator: null,
      values: {},
    });
  });

  it('clears them for a single select too', () => {
    const single = customField('SELECT', 'INSIGHT', { max: 1 });
    expect(
      changeField(form({ field: 'Tags', operator: 'oneOf', values: { Tags: { tagMultiselect: [uuid(1)] } } }), single),
    ).toMatchObject({ operator: null, values: {} });
  });

  it.each([
    ['Title contains', 'Title', 'contains', 'Content', 'contains'],
    ['Title is', 'Title', 'is', customField('TEXT'), 'is'],
    ['Title is not', 'Title', 'isNot', 'Name', 'isNot'],
    ['Tags not one of', 'Tags', 'notOneOf', 'Project', 'notOneOf'],
    ['Tags all of', 'Tags', 'allOf', 'People', 'allOf'],
    ['Tags empty', 'Tags', 'empty', customField('PERSON'), 'empty'],
    ['Created before', 'Created', 'before', customField('DATETIME'), 'before'],
    ['HighlightCount greater', 'HighlightCount', 'greater', customField('NPS'), 'greater'],
  ] as const)('keeps the operator while it still applies: %s', (_, from, operator, to, expected) => {
    expect(changeField(form({ field: from, operator }), to).operator).toBe(expected);
  });

  it.each([
    ['Title contains to Created', 'Title', 'contains', 'Created', 'after'],
    ['Tags empty to Project', 'Tags', 'empty', 'Project', 'oneOf'],
    ['Tags all of to Contributors', 'Tags', 'allOf', 'Contributors', 'oneOf'],
    ['Content empty to Title', 'Content', 'empty', 'Title', 'contains'],
    ['Created after to Archived', 'Created', 'after', 'Archived', 'is'],
    ['HighlightCount greater to a text field', 'HighlightCount', 'greater', customField('TEXT'), 'contains'],
    ['Archived is to a number field keeps is', 'Archived', 'is', customField('NUMBER'), 'is'],
    ['Title is not to HighlightCount', 'Title', 'isNot', 'HighlightCount', 'is'],
  ] as const)('otherwise takes the first allowed operator: %s', (_, from, operator, to, expected) => {
    expect(changeField(form({ field: from, operator }), to).operator).toBe(expected);
  });

  it('takes the first operator when the form had none yet', () => {
    expect(changeField(form({ field: customField('SELECT') }), 'Tags').operator).toBe('oneOf');
  });

  it('keeps values, which are keyed by field, when the new field is not a select', () => {
    const changed = changeField(titleContains, 'Content');
    expect(changed.values).toEqual({ Title: { text: 'pricing' } });
    expect(changed.id).toBe('f1');
  });
});

describe('which forms count (000 §5)', () => {
  it.each([
    ['non-empty text', form({ field: 'Title', operator: 'contains', values: { Title: { text: 'x' } } }), true],
    ['blank text', form({ field: 'Title', operator: 'contains', values: { Title: { text: '   ' } } }), false],
    ['no text', form({ field: 'Title', operator: 'contains' }), false],
    [
      'text under another field',
      form({ field: 'Title', operator: 'contains', values: { Content: { text: 'x' } } }),
      false,
    ],
    [
      'a non-empty list',
      form({ field: 'Tags', operator: 'oneOf', values: { Tags: { tagMultiselect: [uuid(1)] } } }),
      true,
    ],
    ['an empty list', form({ field: 'Tags', operator: 'oneOf', values: { Tags: { tagMultiselect: [] } } }), false],
    ['boolean true', form({ field: 'Archived', operator: 'is', values: { Archived: { boolean: true } } }), true],
    ['boolean false', form({ field: 'Published', operator: 'is', values: { Published: { boolean: false } } }), true],
    ['number 0', form({ field: 'HighlightCount', operator: 'is', values: { HighlightCount: { int: 0 } } }), true],
    [
      'a relative date',
      form({ field: 'Created', operator: 'after', values: { Created: { relativeDate: '1w' } } }),
      true,
    ],
    [
      'an all-time date',
      form({ field: 'Created', operator: 'after', values: { Created: { relativeDate: 'allTime' } } }),
      false,
    ],
    ['empty, without a value', form({ field: 'Tags', operator: 'empty' }), true],
    ['not empty, without a value', form({ field: customField('TEXT'), operator: 'notEmpty' }), true],
    ['the project field without a value', form({ field: 'Project', operator: 'oneOf' }), true],
    ['no operator', form({ field: customField('SELECT'), values: {} }), false],
    ['an operator the field does not allow', form({ field: 'Title', operator: 'empty' }), false],
  ] as const)('%s: %s', (_, f, counts) => {
    expect(formCounts(f)).toBe(counts);
  });

  it('drops blank forms and keeps the rest in order', () => {
    const kept1 = form({ id: 'a', field: 'Tags', operator: 'empty' });
    const blank = form({ id: 'b', field: 'Title', operator: 'contains' });
    const kept2 = form({ id: 'c', field: 'Project', operator: 'notOneOf' });
    expect(dropBlankForms({ combinator: 'or', forms: [kept1, blank, kept2] })).toEqual({
      combinator: 'or',
      forms: [kept1, kept2],
    });
  });
});

describe('the default filter form (000 §4)', () => {
  it('has combinator and and the folder, contributors and created forms', () => {
    const filter = defaultFilterForm();
    expect(filter.combinator).toBe('and');
    expect(filter.forms.map((f) => [f.field, f.operator])).toEqual([
      ['ProjectCategory', 'oneOf'],
      ['Contributors', 'oneOf'],
      ['Created', 'after'],
    ]);
    expect(filter.forms[2]!.values).toEqual({ Created: { relativeDate: 'allTime' } });
  });

  it('has no forms when told not to add the defaults', () => {
    expect(defaultFilterForm({ defaults: false })).toEqual({ combinator: 'and', forms: [] });
  });

  it('adds only the default forms that are absent, in front', () => {
    const created = form({
      id: 'mine',
      field: 'Created',
      operator: 'before',
      values: { Created: { relativeDate: '1y' } },
    });
    const withDefaults = withDefaultForms({ combinator: 'or', forms: [created] });
    expect(withDefaults.combinator).toBe('or');
    expect(withDefaults.forms.map((f) => f.field)).toEqual(['ProjectCategory', 'Contributors', 'Created']);
    expect(withDefaults.forms[2]).toBe(created);
  });

  it('adds nothing when told not to', () => {
    const filter: FilterForm = { combinator: 'and', forms: [] };
    expect(withDefaultForms(filter, { defaults: false })).toBe(filter);
  });

  it('gives each filter its own default forms', () => {
    const a = defaultFilterForm();
    a.forms[2]!.values.Created!.relativeDate = '1w';
    expect(defaultFilterForm().forms[2]!.values).toEqual({ Created: { relativeDate: 'allTime' } });
  });

  it('recognises the default with or without its forms, whatever the form ids', () => {
    expect(isDefaultFilter(defaultFilterForm())).toBe(true);
    expect(isDefaultFilter({ combinator: 'and', forms: [] })).toBe(true);
    const renamed = defaultFilterForm();
    renamed.forms.forEach((f, i) => (f.id = `x${i}`));
    expect(isDefaultFilter(renamed)).toBe(true);
    const changed = defaultFilterForm();
    changed.forms[0]!.values = { ProjectCategory: { folderMultiselect: [uuid(3)] } };
    expect(isDefaultFilter(changed)).toBe(false);
    expect(isDefaultFilter({ combinator: 'or', forms: [] })).toBe(false);
  });
});

describe('normalising a filter (002 §5)', () => {
  it('counts the default as empty', () => {
    expect(normalizeFilter(defaultFilterForm())).toBeNull();
    expect(isEmptyFilter(defaultFilterForm())).toBe(true);
    expect(isEmptyFilter(null)).toBe(true);
  });

  it('drops empty text, all-time dates and empty selectors', () => {
    const filter: FilterForm = {
      combinator: 'and',
      forms: [
        form({ id: 'text', field: 'Title', operator: 'contains', values: { Title: { text: '  ' } } }),
        form({ id: 'date', field: 'Updated', operator: 'before', values: { Updated: { relativeDate: 'allTime' } } }),
        form({ id: 'tags', field: 'Tags', operator: 'allOf', values: { Tags: { tagMultiselect: ['not-a-uuid'] } } }),
        form({ id: 'kept', field: 'Content', operator: 'notContains', values: { Content: { text: ' churn ' } } }),
      ],
    };
    expect(normalizeFilter(filter)).toEqual({
      combinator: 'and',
      forms: [{ id: 'kept', field: 'Content', operator: 'notContains', values: { Content: { text: 'churn' } } }],
    });
  });

  it('keeps only the value the operator reads and cleans id lists', () => {
    const f = form({
      field: 'Contributors',
      operator: 'oneOf',
      hidden: true,
      values: {
        Contributors: { userMultiselect: ['me', uuid(7).toUpperCase(), 'bogus', 'unassigned', uuid(7)], text: 'stale' },
        Title: { text: 'other field' },
      },
    });
    expect(normalizeFilter({ combinator: 'or', forms: [f] })!.forms[0]).toEqual({
      id: 'f1',
      hidden: true,
      field: 'Contributors',
      operator: 'oneOf',
      values: { Contributors: { userMultiselect: ['me', uuid(7), 'unassigned'] } },
    });
  });

  it('drops the value of a form that takes none', () => {
    const f = form({ field: 'Tags', operator: 'notEmpty', values: { Tags: { tagMultiselect: [uuid(1)] } } });
    expect(normalizeFilter({ combinator: 'and', forms: [f] })!.forms[0]!.values).toEqual({});
  });

  it('de-duplicates option ids and drops invalid ones', () => {
    const select = customField('SELECT');
    const f = form({
      field: select,
      operator: 'allOf',
      values: { [select.id]: { optionMultiselect: [uuid(2), ' ' + uuid(2), 'x', uuid(1)] } },
    });
    expect(normalizeFilter({ combinator: 'and', forms: [f] })!.forms[0]!.values).toEqual({
      [select.id]: { optionMultiselect: [uuid(2), uuid(1)] },
    });
  });
});

describe('shared filters (000 §5)', () => {
  it('must have a value', () => {
    expect(() => assertShareable(defaultFilterForm())).toThrow(FilterError);
    expect(() => assertShareable(null)).toThrow('A shared filter needs at least one condition with a value.');
    expect(
      thrown(() => assertShareable({ combinator: 'and', forms: [form({ field: 'Title', operator: 'is' })] })),
    ).toMatchObject({
      field: 'filter',
      errorCode: 'BAD_USER_INPUT',
      humanReadable: true,
    });
  });

  it('answers the normalised filter when it has one', () => {
    const f = form({ field: 'Archived', operator: 'is', values: { Archived: { boolean: false } } });
    expect(assertShareable({ combinator: 'and', forms: [f] })).toEqual({ combinator: 'and', forms: [f] });
  });
});
