import { describe, expect, it } from 'vitest';
import { parseAggregationPeriods, parseSearchParams } from './params.ts';
import { thrown, uuid } from './test-fields.ts';

describe('search parameters (000 §3, 002 §5)', () => {
  it('fills the defaults', () => {
    expect(parseSearchParams({})).toEqual({
      resultTypes: [],
      projectIds: [],
      tagIds: [],
      projectCategoryIds: [],
      sort: [],
      filter: null,
      limit: 100,
      offset: 0,
    });
    expect(parseSearchParams(undefined).offset).toBe(0);
  });

  it('reads every parameter', () => {
    const params = parseSearchParams({
      query: '  "exact phrase" word ',
      resultTypes: ['NOTE', 'INSIGHT', 'NOTE'],
      projectIds: [uuid(1).toUpperCase(), uuid(1)],
      tagIds: [uuid(2)],
      projectCategoryIds: [uuid(3)],
      sort: [
        { field: 'Created', direction: 'DESC' },
        { field: 'Relevance' },
        { field: `field.${uuid(4)}`, direction: 'ASC' },
      ],
      filter: '{"combinator":"or","forms":[]}',
      selectedFilterId: ` ${uuid(5)} `,
      limit: 1000,
      offset: 40,
    });
    expect(params).toEqual({
      query: '"exact phrase" word',
      resultTypes: ['NOTE', 'INSIGHT'],
      projectIds: [uuid(1)],
      tagIds: [uuid(2)],
      projectCategoryIds: [uuid(3)],
      sort: [
        { field: 'Created', direction: 'DESC' },
        { field: 'Relevance', direction: 'ASC' },
        { field: `field.${uuid(4)}`, direction: 'ASC' },
      ],
      filter: { combinator: 'or', forms: [] },
      selectedFilterId: uuid(5),
      limit: 1000,
      offset: 40,
    });
  });

  it('reads a single result type', () => {
    expect(parseSearchParams({ resultType: 'TAG' }).resultTypes).toEqual(['TAG']);
  });

  it('unsets blank strings', () => {
    const params = parseSearchParams({ query: '   ', selectedFilterId: '  ', filter: '' });
    expect(params.query).toBeUndefined();
    expect(params.selectedFilterId).toBeUndefined();
    expect(params.filter).toBeNull();
    expect('query' in params).toBe(false);
  });

  it('allows limit 0', () => {
    expect(parseSearchParams({ limit: 0 }).limit).toBe(0);
  });

  it.each<[string, unknown, string, string]>([
    ['limit above 1000', { limit: 1001 }, 'limit', 'limit must be a whole number from 0 to 1000.'],
    ['negative limit', { limit: -1 }, 'limit', 'limit must be a whole number from 0 to 1000.'],
    ['fractional limit', { limit: 2.5 }, 'limit', 'limit must be a whole number from 0 to 1000.'],
    ['limit as text', { limit: '10' }, 'limit', 'limit must be a whole number from 0 to 1000.'],
    ['negative offset', { offset: -5 }, 'offset', 'offset must be a whole number of 0 or more.'],
    ['fractional offset', { offset: 0.5 }, 'offset', 'offset must be a whole number of 0 or more.'],
    ['a long query', { query: 'q'.repeat(2001) }, 'query', 'The search query can be at most 2000 characters long.'],
    ['a wordy query', { query: 'w '.repeat(61) }, 'query', 'The search query can be at most 60 words long.'],
    [
      'an unknown result type',
      { resultTypes: ['DATASET'] },
      'resultTypes',
      'DATASET is not a result type; use one of INSIGHT, HIGHLIGHT, TAG, NOTE, PROJECT, CHANNEL, THEME, PERSON, PROJECT_CATEGORY, CHANNEL_DATAPOINT.',
    ],
    [
      'result types that are not a list',
      { resultTypes: 'NOTE' },
      'resultTypes',
      'resultTypes must be a list of result types.',
    ],
    [
      'an invalid project id',
      { projectIds: ['abc'] },
      'projectIds',
      'projectIds must hold valid ids; "abc" is not one.',
    ],
    ['an invalid tag id', { tagIds: [7] }, 'tagIds', 'tagIds must hold valid ids; 7 is not one.'],
    [
      'folder ids that are not a list',
      { projectCategoryIds: uuid(1) },
      'projectCategoryIds',
      'projectCategoryIds must be a list of ids.',
    ],
    [
      'an unknown sort field',
      { sort: [{ field: 'Colour', direction: 'ASC' }] },
      'sort.0.field',
      'sort.0.field must be Relevance, a system field such as Created or Title, or a custom field id.',
    ],
    [
      'an unknown sort direction',
      { sort: [{ field: 'Title', direction: 'UP' }] },
      'sort.0.direction',
      'sort.0.direction must be ASC or DESC.',
    ],
    [
      'a repeated sort field',
      { sort: [{ field: 'Title' }, { field: 'Title', direction: 'DESC' }] },
      'sort.1.field',
      'The sort field Title appears twice.',
    ],
    [
      'too many sort fields',
      { sort: Array.from({ length: 11 }, () => ({ field: 'Title' })) },
      'sort',
      'A search can sort by at most 10 fields.',
    ],
    [
      'an invalid selected filter id',
      { selectedFilterId: 'saved-1' },
      'selectedFilterId',
      'selectedFilterId must be a valid id.',
    ],
    ['a filter in broken JSON', { filter: '{' }, 'filter', 'The filter is not valid JSON.'],
    ['parameters that are not an object', 'query', 'input', 'Search parameters must be an object.'],
  ])('refuses %s', (_, input, field, message) => {
    expect(thrown(() => parseSearchParams(input))).toMatchObject({ field, message, errorCode: 'BAD_USER_INPUT' });
  });
});

describe('aggregation periods (002 §5)', () => {
  it.each([1, 2, 3, 4, 5])('allows %i', (n) => {
    expect(parseAggregationPeriods(n)).toBe(n);
  });

  it.each([0, 6, 2.5, '3', null])('refuses %j', (n) => {
    expect(thrown(() => parseAggregationPeriods(n))).toMatchObject({
      field: 'periods',
      message: 'periods must be a whole number from 1 to 5.',
    });
  });
});
