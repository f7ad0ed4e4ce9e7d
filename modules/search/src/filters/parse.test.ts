import { describe, expect, it } from 'vitest';
import { FilterError } from './errors.ts';
import { FILTER_LIMITS, parseFilter } from './parse.ts';
import { customField, thrown, uuid } from './test-fields.ts';

const titleForm = { id: 'a', field: 'Title', operator: 'contains', values: { Title: { text: 'onboarding' } } };

function problem(input: unknown): { field: string; message: string } {
  const error = thrown(() => parseFilter(input));
  expect(error).toBeInstanceOf(FilterError);
  const { field, message } = error as FilterError;
  return { field, message };
}

describe('reading a filter (002 §5: it may arrive as JSON text)', () => {
  it('reads an object', () => {
    expect(parseFilter({ combinator: 'or', forms: [titleForm] })).toEqual({ combinator: 'or', forms: [titleForm] });
  });

  it('reads the same filter from JSON text', () => {
    expect(parseFilter(JSON.stringify({ combinator: 'and', forms: [titleForm] }))).toEqual({
      combinator: 'and',
      forms: [titleForm],
    });
  });

  it('treats null, undefined and blank text as no filter', () => {
    expect(parseFilter(null)).toBeNull();
    expect(parseFilter(undefined)).toBeNull();
    expect(parseFilter('  ')).toBeNull();
  });

  it('defaults the combinator to and and the forms to none; And/Or read in any case', () => {
    expect(parseFilter({})).toEqual({ combinator: 'and', forms: [] });
    expect(parseFilter({ combinator: 'Or' })).toEqual({ combinator: 'or', forms: [] });
  });

  it('reads custom fields, hidden flags, doubles given as digits and select max', () => {
    const num = customField('NUMBER', 'WORKSPACE');
    const select = customField('SELECT', 'INSIGHT', { max: 1 });
    const parsed = parseFilter({
      forms: [
        { id: 'n', hidden: true, field: num, operator: 'greater', values: { [num.id]: { double: '12.5' } } },
        { id: 's', field: select, operator: null, values: {} },
        { id: 'p', field: { id: `personField.${uuid(4)}`, fieldType: 'TEXT' }, operator: 'empty' },
      ],
    });
    expect(parsed!.forms[0]).toEqual({
      id: 'n',
      hidden: true,
      field: num,
      operator: 'greater',
      values: { [num.id]: { double: 12.5 } },
    });
    expect(parsed!.forms[1]).toEqual({ id: 's', field: select, operator: null, values: {} });
    expect(parsed!.forms[2]!.field).toEqual({ id: `personField.${uuid(4)}`, fieldType: 'TEXT', objectType: 'PERSON' });
  });

  it('skips null operands', () => {
    expect(parseFilter({ forms: [{ ...titleForm, values: { Title: { text: null } } }] })!.forms[0]!.values).toEqual({
      Title: {},
    });
  });
});

describe('filter errors', () => {
  it.each<[string, unknown, string, string]>([
    ['invalid JSON', '{"combinator": ', 'filter', 'The filter is not valid JSON.'],
    [
      'JSON that is not an object',
      '[1,2]',
      'filter',
      'The filter must be an object with a combinator and a list of forms.',
    ],
    ['a number', 42, 'filter', 'The filter must be an object with a combinator and a list of forms.'],
    ['an unknown combinator', { combinator: 'xor' }, 'filter.combinator', 'filter.combinator must be and or or.'],
    ['forms that are not a list', { forms: {} }, 'filter.forms', 'filter.forms must be a list of field forms.'],
    [
      'a form without an id',
      { forms: [{ ...titleForm, id: '' }] },
      'filter.forms.0.id',
      'filter.forms.0.id must be text of 1 to 100 characters.',
    ],
    ['a repeated form id', { forms: [titleForm, titleForm] }, 'filter.forms.1.id', 'Two field forms share the id a.'],
    [
      'a non-boolean hidden flag',
      { forms: [{ ...titleForm, hidden: 'yes' }] },
      'filter.forms.0.hidden',
      'filter.forms.0.hidden must be true or false.',
    ],
    [
      'an unknown system field',
      { forms: [{ ...titleForm, field: 'Colour' }] },
      'filter.forms.0.field',
      'filter.forms.0.field must be a system field (Archived, Content, Contributors, Created, HighlightCount, Insights, Name, Note, People, ProjectCategory, Project, Published, Starred, TagBoard, TagGroup, Tags, Title, Updated, Authors, Highlight, Channel, AiGenerated, ImportOrigin, EnrichmentOrigin) or a custom field.',
    ],
    [
      'a bare custom field id',
      { forms: [{ ...titleForm, field: `field.${uuid(1)}` }] },
      'filter.forms.0.field',
      'filter.forms.0.field: a custom field is an object with its id, fieldType and objectType.',
    ],
    [
      'a custom field id without a UUID',
      { forms: [{ ...titleForm, field: { id: 'field.12', fieldType: 'TEXT', objectType: 'NOTE' } }] },
      'filter.forms.0.field.id',
      'filter.forms.0.field.id must be field., question. or personField. followed by a UUID.',
    ],
    [
      'an unknown field type',
      { forms: [{ ...titleForm, field: { id: `field.${uuid(1)}`, fieldType: 'COLOUR', objectType: 'NOTE' } }] },
      'filter.forms.0.field.fieldType',
      'filter.forms.0.field.fieldType must be one of ARR, BOOLEAN, CSAT, DATETIME, EMAIL, NPS, NUMBER, PERSON, PHONE, RATING, SELECT, TEXT, URL.',
    ],
    [
      'a field without an owner',
      { forms: [{ ...titleForm, field: { id: `question.${uuid(1)}`, fieldType: 'TEXT' } }] },
      'filter.forms.0.field.objectType',
      'filter.forms.0.field.objectType must be one of NOTE, INSIGHT, PERSON, WORKSPACE.',
    ],
    [
      'a person field without the personField prefix',
      { forms: [{ ...titleForm, field: { id: `field.${uuid(1)}`, fieldType: 'TEXT', objectType: 'PERSON' } }] },
      'filter.forms.0.field.objectType',
      'filter.forms.0.field: person fields, and only they, have ids starting personField.',
    ],
    [
      'max on a field that is not a select',
      { forms: [{ ...titleForm, field: { id: `field.${uuid(1)}`, fieldType: 'TEXT', objectType: 'NOTE', max: 1 } }] },
      'filter.forms.0.field.max',
      'filter.forms.0.field.max is for select fields only.',
    ],
    [
      'an operator the field does not allow',
      { forms: [{ ...titleForm, operator: 'after' }] },
      'filter.forms.0.operator',
      'filter.forms.0.operator: after is not an operator of Title; use one of contains (contains), notContains (not contains), is (is), isNot (is not).',
    ],
    [
      'an unknown operator on a single select',
      { forms: [{ id: 'x', field: customField('SELECT', 'NOTE', { max: 1 }), operator: 'allOf' }] },
      'filter.forms.0.operator',
      `filter.forms.0.operator: allOf is not an operator of field.${uuid(910)}; use one of oneOf (is one of), notOneOf (not one of), empty (empty), notEmpty (not empty).`,
    ],
    [
      'values that are not an object',
      { forms: [{ ...titleForm, values: [] }] },
      'filter.forms.0.values',
      'filter.forms.0.values must be an object keyed by field, then by operand type.',
    ],
    [
      'an unknown operand type',
      { forms: [{ ...titleForm, values: { Title: { words: 'x' } } }] },
      'filter.forms.0.values.Title.words',
      'filter.forms.0.values.Title: words is not an operand type; use one of boolean, int, double, text, relativeDate, highlightMultiselect, noteMultiselect, insightMultiselect, personMultiselect, projectMultiselect, folderMultiselect, tagMultiselect, tagGroupMultiselect, tagBoardMultiselect, userMultiselect, optionMultiselect, channelMultiselect.',
    ],
    [
      'text that is not text',
      { forms: [{ ...titleForm, values: { Title: { text: 5 } } }] },
      'filter.forms.0.values.Title.text',
      'filter.forms.0.values.Title.text must be text.',
    ],
    [
      'text over the limit',
      { forms: [{ ...titleForm, values: { Title: { text: 'x'.repeat(FILTER_LIMITS.text + 1) } } }] },
      'filter.forms.0.values.Title.text',
      'filter.forms.0.values.Title.text can be at most 2000 characters.',
    ],
    [
      'a boolean that is not one',
      { forms: [{ id: 'b', field: 'Starred', operator: 'is', values: { Starred: { boolean: 'true' } } }] },
      'filter.forms.0.values.Starred.boolean',
      'filter.forms.0.values.Starred.boolean must be true or false.',
    ],
    [
      'a fractional int',
      { forms: [{ id: 'h', field: 'HighlightCount', operator: 'is', values: { HighlightCount: { int: 1.5 } } }] },
      'filter.forms.0.values.HighlightCount.int',
      'filter.forms.0.values.HighlightCount.int must be a whole number.',
    ],
    [
      'a double with letters',
      { forms: [{ id: 'd', field: 'Title', operator: 'is', values: { X: { double: '1e5' } } }] },
      'filter.forms.0.values.X.double',
      'filter.forms.0.values.X.double must be a number: digits with an optional decimal point.',
    ],
    [
      'an unknown relative date',
      { forms: [{ id: 'c', field: 'Created', operator: 'after', values: { Created: { relativeDate: '5 days' } } }] },
      'filter.forms.0.values.Created.relativeDate',
      'filter.forms.0.values.Created.relativeDate must be one of 1h, 1w, 2w, 4w, 1m, 3m, 6m, 1y, 2y or allTime.',
    ],
    [
      'a list of numbers',
      { forms: [{ id: 't', field: 'Tags', operator: 'oneOf', values: { Tags: { tagMultiselect: [1] } } }] },
      'filter.forms.0.values.Tags.tagMultiselect',
      'filter.forms.0.values.Tags.tagMultiselect must be a list of ids.',
    ],
    [
      'too many ids',
      {
        forms: [
          {
            id: 't',
            field: 'Tags',
            operator: 'oneOf',
            values: { Tags: { tagMultiselect: Array.from({ length: 1001 }, (_, i) => uuid(i)) } },
          },
        ],
      },
      'filter.forms.0.values.Tags.tagMultiselect',
      'filter.forms.0.values.Tags.tagMultiselect can hold at most 1000 ids.',
    ],
    [
      'too many forms',
      { forms: Array.from({ length: 101 }, (_, i) => ({ ...titleForm, id: `f${i}` })) },
      'filter.forms',
      'A filter can have at most 100 field forms.',
    ],
    [
      'JSON text over the limit',
      ' '.repeat(FILTER_LIMITS.jsonChars) + '{}',
      'filter',
      'The filter can be at most 100000 characters of JSON.',
    ],
  ])('%s', (_, input, field, message) => {
    expect(problem(input)).toEqual({ field, message });
  });

  it('names the field it was given', () => {
    expect(thrown(() => parseFilter('nope', 'input.filter'))).toMatchObject({
      field: 'input.filter',
      message: 'The input.filter is not valid JSON.',
      errorCode: 'BAD_USER_INPUT',
    });
  });
});
