import { describe, expect, it } from 'vitest';
import { compileSearch, type CompiledSearch } from './compile/compile-search.ts';
import type { CompileContext } from './compile/compile-form.ts';
import type { Predicate } from './compile/predicate.ts';
import { defaultFilterForm } from './defaults.ts';
import { FilterError } from './errors.ts';
import type { FilterField } from './fields.ts';
import type { FieldForm, FilterForm } from './form.ts';
import { resolveRelativeDate, type OperandValues } from './operands.ts';
import type { Operator } from './operators.ts';
import { parseSearchParams } from './params.ts';
import type { SearchResultType } from './search-types.ts';
import { customField, thrown, uuid } from './test-fields.ts';

const NOW = new Date('2025-03-31T12:00:00.000Z');
const ME = uuid(500);
const ctx: CompileContext = { now: NOW, userId: ME };
const [A, B, C] = [uuid(1), uuid(2), uuid(3)];

const TRUE: Predicate = { kind: 'and', predicates: [] };
const ALL_TYPES: SearchResultType[] = [
  'INSIGHT',
  'HIGHLIGHT',
  'TAG',
  'NOTE',
  'PROJECT',
  'CHANNEL',
  'THEME',
  'PERSON',
  'PROJECT_CATEGORY',
  'CHANNEL_DATAPOINT',
];

function form(field: FilterField, operator: Operator, values?: OperandValues, id = 'f'): FieldForm {
  const key = typeof field === 'string' ? field : field.id;
  return { id, field, operator, values: values ? { [key]: values } : {} };
}
const filterOf = (...forms: FieldForm[]): FilterForm => ({
  combinator: 'and',
  forms: forms.map((f, i) => ({ ...f, id: `f${i}` })),
});

function compile(input: Record<string, unknown>, context = ctx): CompiledSearch {
  return compileSearch(parseSearchParams(input), context);
}
/** The where clause of each searched result type. */
function wheres(
  filter: FilterForm,
  input: Record<string, unknown> = {},
  context = ctx,
): Partial<Record<SearchResultType, Predicate>> {
  const compiled = compile({ ...input, filter }, context);
  return Object.fromEntries(compiled.searches.map((s) => [s.type, s.where]));
}

describe('result types and their order (000 §7)', () => {
  it('searches every type in the default order, unfiltered, when nothing is given', () => {
    const compiled = compile({});
    expect(compiled.order).toEqual(ALL_TYPES);
    expect(compiled.searches.every((s) => s.where.kind === 'and' && s.where.predicates.length === 0)).toBe(true);
    expect(compiled.searches.every((s) => s.text === null)).toBe(true);
  });

  it('keeps the default order whatever order the types are asked in', () => {
    expect(compile({ resultTypes: ['PROJECT_CATEGORY', 'NOTE', 'INSIGHT', 'PERSON'] }).order).toEqual([
      'INSIGHT',
      'NOTE',
      'PERSON',
      'PROJECT_CATEGORY',
    ]);
  });

  it('passes sort, limit and offset through', () => {
    const compiled = compile({ sort: [{ field: 'Updated', direction: 'DESC' }], limit: 20, offset: 40 });
    expect(compiled).toMatchObject({ sort: [{ field: 'Updated', direction: 'DESC' }], limit: 20, offset: 40 });
  });

  it('treats the default filter as no filter', () => {
    const compiled = compile({ filter: defaultFilterForm() });
    expect(compiled.order).toEqual(ALL_TYPES);
    expect(compiled.searches.map((s) => s.where)).toEqual(ALL_TYPES.map(() => TRUE));
  });
});

describe('project ids (000 §7)', () => {
  it('add a project filter and skip folder, channel, theme and person searches', () => {
    const compiled = compile({ projectIds: [A, B] });
    expect(compiled.order).toEqual(['INSIGHT', 'HIGHLIGHT', 'TAG', 'NOTE', 'PROJECT']);
    const where = Object.fromEntries(compiled.searches.map((s) => [s.type, s.where]));
    expect(where).toEqual({
      INSIGHT: { kind: 'in', attribute: 'projectId', values: [A, B] },
      HIGHLIGHT: { kind: 'in', attribute: 'projectId', values: [A, B] },
      TAG: { kind: 'in', attribute: 'projectId', values: [A, B] },
      NOTE: { kind: 'in', attribute: 'projectId', values: [A, B] },
      PROJECT: { kind: 'in', attribute: 'id', values: [A, B] },
    });
  });

  it('skip those types even when they are asked for', () => {
    expect(compile({ projectIds: [A], resultTypes: ['PERSON', 'CHANNEL', 'NOTE'] }).order).toEqual(['NOTE']);
  });

  it('are and-ed with the filter', () => {
    const w = wheres(filterOf(form('Title', 'contains', { text: 'churn' })), {
      projectIds: [A],
      resultTypes: ['NOTE'],
    });
    expect(w.NOTE).toEqual({
      kind: 'and',
      predicates: [
        { kind: 'contains', attribute: 'title', value: 'churn' },
        { kind: 'in', attribute: 'projectId', values: [A] },
      ],
    });
  });

  it('spare a person filter that would raise an error, since people are not searched', () => {
    const personPerson = customField('PERSON', 'PERSON');
    expect(() => compile({ projectIds: [A], filter: filterOf(form(personPerson, 'notEmpty')) })).not.toThrow();
  });
});

describe('tag and folder ids', () => {
  it('hold the search to results with those tags', () => {
    const compiled = compile({ tagIds: [A] });
    expect(compiled.order).toEqual(['INSIGHT', 'HIGHLIGHT', 'TAG', 'NOTE']);
    expect(compiled.searches.map((s) => s.where)).toEqual([
      { kind: 'overlaps', attribute: 'tagIds', values: [A] },
      { kind: 'overlaps', attribute: 'tagIds', values: [A] },
      { kind: 'in', attribute: 'id', values: [A] },
      { kind: 'overlaps', attribute: 'tagIds', values: [A] },
    ]);
  });

  it('hold the search to those folders', () => {
    const compiled = compile({ projectCategoryIds: [B] });
    expect(compiled.order).toEqual(['INSIGHT', 'HIGHLIGHT', 'TAG', 'NOTE', 'PROJECT', 'CHANNEL', 'PROJECT_CATEGORY']);
    const where = Object.fromEntries(compiled.searches.map((s) => [s.type, s.where]));
    expect(where.PROJECT_CATEGORY).toEqual({ kind: 'in', attribute: 'id', values: [B] });
    expect(where.CHANNEL).toEqual({ kind: 'overlaps', attribute: 'folderIds', values: [B] });
    expect(where.NOTE).toEqual({ kind: 'overlaps', attribute: 'folderIds', values: [B] });
  });
});

describe('text search (000 §7, §5)', () => {
  it('matches title, content and name as far as each type has them', () => {
    const compiled = compile({ query: '"too expensive" churn' });
    const attributes = Object.fromEntries(compiled.searches.map((s) => [s.type, s.text!.attributes]));
    expect(attributes).toEqual({
      INSIGHT: ['title', 'content'],
      HIGHLIGHT: ['content'],
      TAG: ['title'],
      NOTE: ['title', 'content'],
      PROJECT: ['title', 'content'],
      CHANNEL: ['title'],
      THEME: ['title', 'content'],
      PERSON: ['name'],
      PROJECT_CATEGORY: ['title'],
      CHANNEL_DATAPOINT: ['content'],
    });
    expect(compiled.searches[0]!.text).toEqual({
      query: '"too expensive" churn',
      phrases: ['too expensive'],
      words: [],
      prefix: 'churn',
      attributes: ['title', 'content'],
    });
  });

  it('matches project titles only in projects-only mode', () => {
    const compiled = compile({ query: 'roadmap', resultTypes: ['PROJECT'] });
    expect(compiled.order).toEqual(['PROJECT']);
    expect(compiled.searches[0]!.text!.attributes).toEqual(['title']);
  });

  it('is not projects-only when other types are searched as well', () => {
    const compiled = compile({ query: 'roadmap', resultTypes: ['PROJECT', 'NOTE'] });
    expect(compiled.searches.find((s) => s.type === 'PROJECT')!.text!.attributes).toEqual(['title', 'content']);
  });
});

describe('relative dates', () => {
  it.each([
    ['1h', '2025-03-31T11:00:00.000Z'],
    ['1w', '2025-03-24T12:00:00.000Z'],
    ['2w', '2025-03-17T12:00:00.000Z'],
    ['4w', '2025-03-03T12:00:00.000Z'],
    ['1m', '2025-02-28T12:00:00.000Z'],
    ['3m', '2024-12-31T12:00:00.000Z'],
    ['6m', '2024-09-30T12:00:00.000Z'],
    ['1y', '2024-03-31T12:00:00.000Z'],
    ['2y', '2023-03-31T12:00:00.000Z'],
  ] as const)('%s ago from 31 March 2025 noon is %s', (value, expected) => {
    expect(resolveRelativeDate(value, NOW).toISOString()).toBe(expected);
  });

  it('lands on 28 February a year back from a leap day', () => {
    expect(resolveRelativeDate('1y', new Date('2024-02-29T00:00:00Z')).toISOString()).toBe('2023-02-28T00:00:00.000Z');
  });

  it('compiles Created after and Updated before against now, for every type', () => {
    const w = wheres(
      filterOf(form('Created', 'after', { relativeDate: '1w' }), form('Updated', 'before', { relativeDate: '1y' })),
    );
    expect(Object.keys(w)).toEqual(ALL_TYPES);
    for (const where of Object.values(w)) {
      expect(where).toEqual({
        kind: 'and',
        predicates: [
          { kind: 'greaterThan', attribute: 'createdAt', value: '2025-03-24T12:00:00.000Z' },
          { kind: 'lessThan', attribute: 'updatedAt', value: '2024-03-31T12:00:00.000Z' },
        ],
      });
    }
  });
});

describe('system field forms per result type', () => {
  const tagsOf = (values: string[]) => ({ tagMultiselect: values });

  it.each<[string, FieldForm, Partial<Record<SearchResultType, Predicate>>]>([
    [
      'Published is true: insights only',
      form('Published', 'is', { boolean: true }),
      { INSIGHT: { kind: 'equalTo', attribute: 'published', value: true } },
    ],
    [
      'Archived is false: not archived, and true where there is no archive',
      form('Archived', 'is', { boolean: false }),
      {
        INSIGHT: TRUE,
        HIGHLIGHT: TRUE,
        TAG: TRUE,
        NOTE: { kind: 'not', predicate: { kind: 'equalTo', attribute: 'archived', value: true } },
        PROJECT: { kind: 'not', predicate: { kind: 'equalTo', attribute: 'archived', value: true } },
        CHANNEL: TRUE,
        THEME: TRUE,
        PERSON: TRUE,
        PROJECT_CATEGORY: TRUE,
        CHANNEL_DATAPOINT: TRUE,
      },
    ],
    [
      'Starred is true: what the searcher starred',
      form('Starred', 'is', { boolean: true }),
      {
        INSIGHT: { kind: 'overlaps', attribute: 'starredBy', values: [ME] },
        NOTE: { kind: 'overlaps', attribute: 'starredBy', values: [ME] },
        PROJECT: { kind: 'overlaps', attribute: 'starredBy', values: [ME] },
      },
    ],
    [
      'AiGenerated is true',
      form('AiGenerated', 'is', { boolean: true }),
      Object.fromEntries(
        ['INSIGHT', 'HIGHLIGHT', 'TAG', 'NOTE', 'THEME'].map((t) => [
          t,
          { kind: 'equalTo', attribute: 'aiGenerated', value: true },
        ]),
      ),
    ],
    [
      'Tags one of',
      form('Tags', 'oneOf', tagsOf([A, B])),
      {
        INSIGHT: { kind: 'overlaps', attribute: 'tagIds', values: [A, B] },
        HIGHLIGHT: { kind: 'overlaps', attribute: 'tagIds', values: [A, B] },
        TAG: { kind: 'in', attribute: 'id', values: [A, B] },
        NOTE: { kind: 'overlaps', attribute: 'tagIds', values: [A, B] },
      },
    ],
    [
      'Tags all of',
      form('Tags', 'allOf', tagsOf([A, B])),
      {
        INSIGHT: {
          kind: 'and',
          predicates: [
            { kind: 'overlaps', attribute: 'tagIds', values: [A] },
            { kind: 'overlaps', attribute: 'tagIds', values: [B] },
          ],
        },
        HIGHLIGHT: {
          kind: 'and',
          predicates: [
            { kind: 'overlaps', attribute: 'tagIds', values: [A] },
            { kind: 'overlaps', attribute: 'tagIds', values: [B] },
          ],
        },
        TAG: {
          kind: 'and',
          predicates: [
            { kind: 'in', attribute: 'id', values: [A] },
            { kind: 'in', attribute: 'id', values: [B] },
          ],
        },
        NOTE: {
          kind: 'and',
          predicates: [
            { kind: 'overlaps', attribute: 'tagIds', values: [A] },
            { kind: 'overlaps', attribute: 'tagIds', values: [B] },
          ],
        },
      },
    ],
    [
      'Tags not one of: untagged types all pass',
      form('Tags', 'notOneOf', tagsOf([A])),
      {
        INSIGHT: { kind: 'not', predicate: { kind: 'overlaps', attribute: 'tagIds', values: [A] } },
        HIGHLIGHT: { kind: 'not', predicate: { kind: 'overlaps', attribute: 'tagIds', values: [A] } },
        TAG: { kind: 'not', predicate: { kind: 'in', attribute: 'id', values: [A] } },
        NOTE: { kind: 'not', predicate: { kind: 'overlaps', attribute: 'tagIds', values: [A] } },
        PROJECT: TRUE,
        CHANNEL: TRUE,
        THEME: TRUE,
        PERSON: TRUE,
        PROJECT_CATEGORY: TRUE,
        CHANNEL_DATAPOINT: TRUE,
      },
    ],
    [
      'Tags not all of',
      form('Tags', 'notAllOf', tagsOf([A, B])),
      expect.objectContaining({
        NOTE: {
          kind: 'not',
          predicate: {
            kind: 'and',
            predicates: [
              { kind: 'overlaps', attribute: 'tagIds', values: [A] },
              { kind: 'overlaps', attribute: 'tagIds', values: [B] },
            ],
          },
        },
        PROJECT: TRUE,
      }),
    ],
    [
      'Tags empty: types without tags count as empty',
      form('Tags', 'empty'),
      expect.objectContaining({
        NOTE: { kind: 'empty', attribute: 'tagIds' },
        TAG: { kind: 'empty', attribute: 'id' },
        PERSON: TRUE,
      }),
    ],
    [
      'Tags not empty',
      form('Tags', 'notEmpty'),
      {
        INSIGHT: { kind: 'not', predicate: { kind: 'empty', attribute: 'tagIds' } },
        HIGHLIGHT: { kind: 'not', predicate: { kind: 'empty', attribute: 'tagIds' } },
        TAG: { kind: 'not', predicate: { kind: 'empty', attribute: 'id' } },
        NOTE: { kind: 'not', predicate: { kind: 'empty', attribute: 'tagIds' } },
      },
    ],
    [
      'TagGroup one of: a tag has one group',
      form('TagGroup', 'oneOf', { tagGroupMultiselect: [A] }),
      expect.objectContaining({
        TAG: { kind: 'in', attribute: 'tagGroupId', values: [A] },
        NOTE: { kind: 'overlaps', attribute: 'tagGroupIds', values: [A] },
      }),
    ],
    [
      'TagBoard one of',
      form('TagBoard', 'oneOf', { tagBoardMultiselect: [A] }),
      expect.objectContaining({
        TAG: { kind: 'overlaps', attribute: 'tagBoardIds', values: [A] },
        HIGHLIGHT: { kind: 'overlaps', attribute: 'tagBoardIds', values: [A] },
      }),
    ],
    [
      'Title contains',
      form('Title', 'contains', { text: ' pricing ' }),
      Object.fromEntries(
        ['INSIGHT', 'TAG', 'NOTE', 'PROJECT', 'CHANNEL', 'THEME', 'PROJECT_CATEGORY'].map((t) => [
          t,
          { kind: 'contains', attribute: 'title', value: 'pricing' },
        ]),
      ),
    ],
    [
      'Title is',
      form('Title', 'is', { text: 'Q3 plan' }),
      expect.objectContaining({ NOTE: { kind: 'equalTo', attribute: 'title', value: 'Q3 plan' } }),
    ],
    [
      'Title is not: untitled types pass',
      form('Title', 'isNot', { text: 'Q3 plan' }),
      expect.objectContaining({
        NOTE: { kind: 'not', predicate: { kind: 'equalTo', attribute: 'title', value: 'Q3 plan' } },
        HIGHLIGHT: TRUE,
        PERSON: TRUE,
      }),
    ],
    [
      'Name contains: people only',
      form('Name', 'contains', { text: 'Ada' }),
      { PERSON: { kind: 'contains', attribute: 'name', value: 'Ada' } },
    ],
    [
      'Content not contains',
      form('Content', 'notContains', { text: 'lorem' }),
      expect.objectContaining({
        HIGHLIGHT: { kind: 'not', predicate: { kind: 'contains', attribute: 'content', value: 'lorem' } },
        TAG: TRUE,
      }),
    ],
    [
      'Content empty',
      form('Content', 'empty'),
      expect.objectContaining({ THEME: { kind: 'empty', attribute: 'content' }, TAG: TRUE }),
    ],
    [
      'HighlightCount greater',
      form('HighlightCount', 'greater', { int: 3 }),
      {
        INSIGHT: { kind: 'greaterThan', attribute: 'highlightCount', value: 3 },
        TAG: { kind: 'greaterThan', attribute: 'highlightCount', value: 3 },
        NOTE: { kind: 'greaterThan', attribute: 'highlightCount', value: 3 },
      },
    ],
    [
      'HighlightCount less',
      form('HighlightCount', 'less', { int: 1 }),
      expect.objectContaining({ TAG: { kind: 'lessThan', attribute: 'highlightCount', value: 1 } }),
    ],
    [
      'HighlightCount is',
      form('HighlightCount', 'is', { int: 0 }),
      expect.objectContaining({ NOTE: { kind: 'equalTo', attribute: 'highlightCount', value: 0 } }),
    ],
    [
      'Contributors one of me, unassigned and another',
      form('Contributors', 'oneOf', { userMultiselect: ['me', 'unassigned', A] }),
      Object.fromEntries(
        ['INSIGHT', 'HIGHLIGHT', 'TAG', 'NOTE', 'PROJECT'].map((t) => [
          t,
          {
            kind: 'or',
            predicates: [
              { kind: 'overlaps', attribute: 'contributorIds', values: [ME, A] },
              { kind: 'empty', attribute: 'contributorIds' },
            ],
          },
        ]),
      ),
    ],
    [
      'Authors not one of me',
      form('Authors', 'notOneOf', { userMultiselect: ['me'] }),
      expect.objectContaining({
        NOTE: { kind: 'not', predicate: { kind: 'overlaps', attribute: 'authorIds', values: [ME] } },
        HIGHLIGHT: TRUE,
      }),
    ],
    [
      'Channel one of',
      form('Channel', 'oneOf', { channelMultiselect: [C] }),
      {
        CHANNEL: { kind: 'in', attribute: 'id', values: [C] },
        THEME: { kind: 'in', attribute: 'channelId', values: [C] },
        CHANNEL_DATAPOINT: { kind: 'in', attribute: 'channelId', values: [C] },
      },
    ],
    [
      'Folder one of',
      form('ProjectCategory', 'oneOf', { folderMultiselect: [C] }),
      {
        INSIGHT: { kind: 'overlaps', attribute: 'folderIds', values: [C] },
        HIGHLIGHT: { kind: 'overlaps', attribute: 'folderIds', values: [C] },
        TAG: { kind: 'overlaps', attribute: 'folderIds', values: [C] },
        NOTE: { kind: 'overlaps', attribute: 'folderIds', values: [C] },
        PROJECT: { kind: 'overlaps', attribute: 'folderIds', values: [C] },
        CHANNEL: { kind: 'overlaps', attribute: 'folderIds', values: [C] },
        PROJECT_CATEGORY: { kind: 'in', attribute: 'id', values: [C] },
      },
    ],
    [
      'Project not one of',
      form('Project', 'notOneOf', { projectMultiselect: [A] }),
      expect.objectContaining({
        PROJECT: { kind: 'not', predicate: { kind: 'in', attribute: 'id', values: [A] } },
        NOTE: { kind: 'not', predicate: { kind: 'in', attribute: 'projectId', values: [A] } },
        PERSON: TRUE,
      }),
    ],
    [
      'People one of',
      form('People', 'oneOf', { personMultiselect: [A] }),
      {
        INSIGHT: { kind: 'overlaps', attribute: 'personIds', values: [A] },
        HIGHLIGHT: { kind: 'overlaps', attribute: 'personIds', values: [A] },
        NOTE: { kind: 'overlaps', attribute: 'personIds', values: [A] },
        PERSON: { kind: 'in', attribute: 'id', values: [A] },
        CHANNEL_DATAPOINT: { kind: 'overlaps', attribute: 'personIds', values: [A] },
      },
    ],
    [
      'Note one of',
      form('Note', 'oneOf', { noteMultiselect: [A] }),
      {
        INSIGHT: { kind: 'overlaps', attribute: 'noteIds', values: [A] },
        HIGHLIGHT: { kind: 'in', attribute: 'noteId', values: [A] },
        NOTE: { kind: 'in', attribute: 'id', values: [A] },
        PERSON: { kind: 'overlaps', attribute: 'noteIds', values: [A] },
      },
    ],
    [
      'Highlight one of',
      form('Highlight', 'oneOf', { highlightMultiselect: [A] }),
      {
        INSIGHT: { kind: 'overlaps', attribute: 'highlightIds', values: [A] },
        HIGHLIGHT: { kind: 'in', attribute: 'id', values: [A] },
        NOTE: { kind: 'overlaps', attribute: 'highlightIds', values: [A] },
      },
    ],
    [
      'Insights all of',
      form('Insights', 'allOf', { insightMultiselect: [A, B] }),
      {
        INSIGHT: {
          kind: 'and',
          predicates: [
            { kind: 'in', attribute: 'id', values: [A] },
            { kind: 'in', attribute: 'id', values: [B] },
          ],
        },
        HIGHLIGHT: {
          kind: 'and',
          predicates: [
            { kind: 'overlaps', attribute: 'insightIds', values: [A] },
            { kind: 'overlaps', attribute: 'insightIds', values: [B] },
          ],
        },
        NOTE: {
          kind: 'and',
          predicates: [
            { kind: 'overlaps', attribute: 'insightIds', values: [A] },
            { kind: 'overlaps', attribute: 'insightIds', values: [B] },
          ],
        },
      },
    ],
    [
      'ImportOrigin contains',
      form('ImportOrigin', 'contains', { text: 'zendesk' }),
      {
        NOTE: { kind: 'contains', attribute: 'importOrigin', value: 'zendesk' },
        PERSON: { kind: 'contains', attribute: 'importOrigin', value: 'zendesk' },
      },
    ],
    [
      'EnrichmentOrigin not empty',
      form('EnrichmentOrigin', 'notEmpty'),
      { PERSON: { kind: 'not', predicate: { kind: 'empty', attribute: 'enrichmentOrigin' } } },
    ],
  ])('%s', (_, f, expected) => {
    expect(wheres(filterOf(f))).toEqual(expected);
  });

  it('a searcher who is not signed in matches no "me" and has starred nothing', () => {
    const anonymous = { now: NOW, userId: null };
    expect(wheres(filterOf(form('Contributors', 'oneOf', { userMultiselect: ['me'] })), {}, anonymous)).toEqual({});
    expect(wheres(filterOf(form('Starred', 'is', { boolean: false })), { resultTypes: ['NOTE'] }, anonymous)).toEqual({
      NOTE: TRUE,
    });
  });

  it('the project field counts without a value, and then matches no project', () => {
    expect(compile({ filter: filterOf(form('Project', 'oneOf')) }).order).toEqual([]);
    expect(compile({ filter: filterOf(form('Project', 'notOneOf')) }).order).toEqual(ALL_TYPES);
  });

  it('hidden forms still filter', () => {
    const hidden = { ...form('Published', 'is', { boolean: true }), hidden: true };
    expect(compile({ filter: filterOf(hidden) }).order).toEqual(['INSIGHT']);
  });

  it('drops blank forms before compiling', () => {
    const filter = filterOf(
      form('Title', 'contains', { text: ' ' }),
      form('Tags', 'oneOf', { tagMultiselect: [] }),
      form('HighlightCount', 'is', { int: 2 }),
    );
    expect(wheres(filter)).toEqual({
      INSIGHT: { kind: 'equalTo', attribute: 'highlightCount', value: 2 },
      TAG: { kind: 'equalTo', attribute: 'highlightCount', value: 2 },
      NOTE: { kind: 'equalTo', attribute: 'highlightCount', value: 2 },
    });
  });
});

describe('combinators', () => {
  const published = form('Published', 'is', { boolean: true });
  const tagged = form('Tags', 'oneOf', { tagMultiselect: [A] });

  it('and needs every form, so a type lacking a field is left out', () => {
    expect(wheres(filterOf(published, tagged))).toEqual({
      INSIGHT: {
        kind: 'and',
        predicates: [
          { kind: 'equalTo', attribute: 'published', value: true },
          { kind: 'overlaps', attribute: 'tagIds', values: [A] },
        ],
      },
    });
  });

  it('or needs any form', () => {
    expect(
      wheres({
        combinator: 'or',
        forms: [
          { ...published, id: 'p' },
          { ...tagged, id: 't' },
        ],
      }),
    ).toEqual({
      INSIGHT: {
        kind: 'or',
        predicates: [
          { kind: 'equalTo', attribute: 'published', value: true },
          { kind: 'overlaps', attribute: 'tagIds', values: [A] },
        ],
      },
      HIGHLIGHT: { kind: 'overlaps', attribute: 'tagIds', values: [A] },
      TAG: { kind: 'in', attribute: 'id', values: [A] },
      NOTE: { kind: 'overlaps', attribute: 'tagIds', values: [A] },
    });
  });

  it('or with a form every type passes matches everything', () => {
    const notTagged = form('Tags', 'notOneOf', { tagMultiselect: [A] });
    const w = wheres({
      combinator: 'or',
      forms: [
        { ...published, id: 'p' },
        { ...notTagged, id: 'n' },
      ],
    });
    expect(w.PERSON).toEqual(TRUE);
    expect(Object.keys(w)).toEqual(ALL_TYPES);
  });
});

describe('custom field forms', () => {
  it('a note field applies to notes only', () => {
    const text = customField('TEXT', 'NOTE');
    expect(wheres(filterOf(form(text, 'contains', { text: 'churn' })))).toEqual({
      NOTE: { kind: 'contains', attribute: text.id, value: 'churn' },
    });
  });

  it('a workspace field applies to notes and insights', () => {
    const arr = customField('ARR', 'WORKSPACE');
    expect(wheres(filterOf(form(arr, 'greater', { double: 1000.5 })))).toEqual({
      INSIGHT: { kind: 'greaterThan', attribute: arr.id, value: 1000.5 },
      NOTE: { kind: 'greaterThan', attribute: arr.id, value: 1000.5 },
    });
  });

  it('an insight field applies to insights only', () => {
    const nps = customField('NPS', 'INSIGHT');
    expect(wheres(filterOf(form(nps, 'isNot', { int: 10 })))).toEqual(
      expect.objectContaining({
        INSIGHT: { kind: 'not', predicate: { kind: 'equalTo', attribute: nps.id, value: 10 } },
        NOTE: TRUE,
      }),
    );
  });

  it('a person field applies to people', () => {
    const select = customField('SELECT', 'PERSON');
    expect(wheres(filterOf(form(select, 'allOf', { optionMultiselect: [A, B] })))).toEqual({
      PERSON: {
        kind: 'and',
        predicates: [
          { kind: 'overlaps', attribute: select.id, values: [A] },
          { kind: 'overlaps', attribute: select.id, values: [B] },
        ],
      },
    });
  });

  it('a single select one of reads the option list', () => {
    const single = customField('SELECT', 'NOTE', { max: 1 });
    expect(wheres(filterOf(form(single, 'oneOf', { optionMultiselect: [A, 'junk'] })))).toEqual({
      NOTE: { kind: 'overlaps', attribute: single.id, values: [A] },
    });
  });

  it('a boolean field is false when not true', () => {
    const flag = customField('BOOLEAN', 'NOTE');
    expect(wheres(filterOf(form(flag, 'is', { boolean: false })), { resultTypes: ['NOTE'] })).toEqual({
      NOTE: { kind: 'not', predicate: { kind: 'equalTo', attribute: flag.id, value: true } },
    });
  });

  it('a date field compares against the relative date', () => {
    const date = customField('DATETIME', 'INSIGHT');
    expect(wheres(filterOf(form(date, 'before', { relativeDate: '3m' })), { resultTypes: ['INSIGHT'] })).toEqual({
      INSIGHT: { kind: 'lessThan', attribute: date.id, value: '2024-12-31T12:00:00.000Z' },
    });
  });

  it('a user field on notes reads user ids', () => {
    const owner = customField('PERSON', 'NOTE');
    expect(wheres(filterOf(form(owner, 'oneOf', { userMultiselect: ['me'] })))).toEqual({
      NOTE: { kind: 'overlaps', attribute: owner.id, values: [ME] },
    });
  });

  it.each(['oneOf', 'notEmpty', 'notAllOf'] as const)(
    'a person custom field inside a person filter raises an internal error (%s)',
    (operator) => {
      const personPerson = customField('PERSON', 'PERSON');
      const values = operator === 'notEmpty' ? undefined : { userMultiselect: [A] };
      const error = thrown(() => compile({ filter: filterOf(form(personPerson, operator, values)) }));
      expect(error).toBeInstanceOf(FilterError);
      expect(error).toMatchObject({ errorCode: 'INTERNAL_SERVER_ERROR', humanReadable: false, field: 'filter' });
    },
  );

  it('a person custom field compiles when people are not searched', () => {
    const personPerson = customField('PERSON', 'PERSON');
    expect(compile({ resultTypes: ['NOTE'], filter: filterOf(form(personPerson, 'notEmpty')) }).order).toEqual([]);
  });
});
