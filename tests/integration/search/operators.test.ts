import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { buildWorld, searchOk, startSearchServer, type SearchWorld } from './support.ts';

/**
 * Every row of the operators table (000 §5) for the fields research data has, run on
 * PostgreSQL against the data built in support.ts. Expected results are note titles (insight
 * titles for Published).
 */
let server: TestServer;
let mail: TestMailServer;
let w: SearchWorld;

beforeAll(async () => {
  ({ server, mail } = await startSearchServer());
  w = await buildWorld(server, mail);
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
});

const INTERVIEW = 'Customer interview with Zoë';
const PRICING = 'Pricing call';
const BLANK = 'Blank page';
const CHURN = 'Churn survey';
const ALL = [INTERVIEW, PRICING, BLANK, CHURN];
const except = (...titles: string[]) => ALL.filter((t) => !titles.includes(t));

type Values = Record<string, unknown>;
interface Row {
  name: string;
  field: string | ((w: SearchWorld) => Record<string, unknown>);
  operator: string;
  values?: (w: SearchWorld) => Values;
  type?: 'NOTE' | 'INSIGHT';
  expected: string[];
}

const custom = (key: keyof SearchWorld['fields'], fieldType: string) => (w: SearchWorld) => ({
  id: `field.${w.fields[key]}`,
  fieldType,
  objectType: 'NOTE',
});

const ROWS: Row[] = [
  // Name, Title: contains, not contains, is, is not
  {
    name: 'Title contains',
    field: 'Title',
    operator: 'contains',
    values: () => ({ text: 'PRICING' }),
    expected: [PRICING],
  },
  {
    name: 'Title not contains',
    field: 'Title',
    operator: 'notContains',
    values: () => ({ text: 'pricing' }),
    expected: except(PRICING),
  },
  { name: 'Title is', field: 'Title', operator: 'is', values: () => ({ text: 'pricing call' }), expected: [PRICING] },
  {
    name: 'Title is not',
    field: 'Title',
    operator: 'isNot',
    values: () => ({ text: 'Pricing call' }),
    expected: except(PRICING),
  },
  {
    name: 'Title contains (accents ignored)',
    field: 'Title',
    operator: 'contains',
    values: () => ({ text: 'zoe' }),
    expected: [INTERVIEW],
  },
  // Content: contains, not contains, empty, not empty
  {
    name: 'Content contains',
    field: 'Content',
    operator: 'contains',
    values: () => ({ text: 'enterprise' }),
    expected: [PRICING],
  },
  {
    name: 'Content contains % literally',
    field: 'Content',
    operator: 'contains',
    values: () => ({ text: '%' }),
    expected: [],
  },
  {
    name: 'Content not contains',
    field: 'Content',
    operator: 'notContains',
    values: () => ({ text: 'customer' }),
    expected: [PRICING, BLANK],
  },
  { name: 'Content empty', field: 'Content', operator: 'empty', expected: [BLANK] },
  { name: 'Content not empty', field: 'Content', operator: 'notEmpty', expected: except(BLANK) },
  // Created, Updated: after, before
  {
    name: 'Created after',
    field: 'Created',
    operator: 'after',
    values: () => ({ relativeDate: '1w' }),
    expected: except(PRICING),
  },
  {
    name: 'Created before',
    field: 'Created',
    operator: 'before',
    values: () => ({ relativeDate: '1w' }),
    expected: [PRICING],
  },
  {
    name: 'Updated after',
    field: 'Updated',
    operator: 'after',
    values: () => ({ relativeDate: '1y' }),
    expected: except(PRICING),
  },
  {
    name: 'Updated before',
    field: 'Updated',
    operator: 'before',
    values: () => ({ relativeDate: '1y' }),
    expected: [PRICING],
  },
  // Tags: one of, not one of, all of, not all of, empty, not empty (a note's tags are its highlights' tags)
  {
    name: 'Tags one of',
    field: 'Tags',
    operator: 'oneOf',
    values: (w) => ({ tagMultiselect: [w.tags.pricing] }),
    expected: [INTERVIEW, PRICING],
  },
  {
    name: 'Tags not one of',
    field: 'Tags',
    operator: 'notOneOf',
    values: (w) => ({ tagMultiselect: [w.tags.usability] }),
    expected: except(INTERVIEW),
  },
  {
    name: 'Tags all of',
    field: 'Tags',
    operator: 'allOf',
    values: (w) => ({ tagMultiselect: [w.tags.usability, w.tags.pricing] }),
    expected: [INTERVIEW],
  },
  {
    name: 'Tags not all of',
    field: 'Tags',
    operator: 'notAllOf',
    values: (w) => ({ tagMultiselect: [w.tags.usability, w.tags.pricing] }),
    expected: except(INTERVIEW),
  },
  { name: 'Tags empty', field: 'Tags', operator: 'empty', expected: [BLANK, CHURN] },
  { name: 'Tags not empty', field: 'Tags', operator: 'notEmpty', expected: [INTERVIEW, PRICING] },
  // Project, Folder: one of, not one of
  {
    name: 'Project one of',
    field: 'Project',
    operator: 'oneOf',
    values: (w) => ({ projectMultiselect: [w.p2] }),
    expected: [CHURN],
  },
  {
    name: 'Project not one of',
    field: 'Project',
    operator: 'notOneOf',
    values: (w) => ({ projectMultiselect: [w.p2] }),
    expected: except(CHURN),
  },
  {
    name: 'Folder one of',
    field: 'ProjectCategory',
    operator: 'oneOf',
    values: (w) => ({ folderMultiselect: [w.folderId] }),
    expected: except(CHURN),
  },
  {
    name: 'Folder not one of',
    field: 'ProjectCategory',
    operator: 'notOneOf',
    values: (w) => ({ folderMultiselect: [w.folderId] }),
    expected: [CHURN],
  },
  // Archived, Published, Starred: is
  {
    name: 'Archived is true',
    field: 'Archived',
    operator: 'is',
    values: () => ({ boolean: true }),
    expected: [PRICING],
  },
  {
    name: 'Archived is false',
    field: 'Archived',
    operator: 'is',
    values: () => ({ boolean: false }),
    expected: except(PRICING),
  },
  {
    name: 'Starred is true',
    field: 'Starred',
    operator: 'is',
    values: () => ({ boolean: true }),
    expected: [INTERVIEW],
  },
  {
    name: 'Starred is false',
    field: 'Starred',
    operator: 'is',
    values: () => ({ boolean: false }),
    expected: except(INTERVIEW),
  },
  {
    name: 'Published is true',
    field: 'Published',
    operator: 'is',
    values: () => ({ boolean: true }),
    type: 'INSIGHT',
    expected: ['Onboarding friction'],
  },
  {
    name: 'Published is false',
    field: 'Published',
    operator: 'is',
    values: () => ({ boolean: false }),
    type: 'INSIGHT',
    expected: ['Draft idea'],
  },
  // HighlightCount: is, greater, less
  {
    name: 'HighlightCount is',
    field: 'HighlightCount',
    operator: 'is',
    values: () => ({ int: 1 }),
    expected: [PRICING],
  },
  {
    name: 'HighlightCount greater',
    field: 'HighlightCount',
    operator: 'greater',
    values: () => ({ int: 1 }),
    expected: [INTERVIEW],
  },
  {
    name: 'HighlightCount less',
    field: 'HighlightCount',
    operator: 'less',
    values: () => ({ int: 1 }),
    expected: [BLANK, CHURN],
  },
  // People: one of, not one of, all of, not all of
  {
    name: 'People one of',
    field: 'People',
    operator: 'oneOf',
    values: (w) => ({ personMultiselect: [w.personId] }),
    expected: [INTERVIEW],
  },
  {
    name: 'People not one of',
    field: 'People',
    operator: 'notOneOf',
    values: (w) => ({ personMultiselect: [w.personId] }),
    expected: except(INTERVIEW),
  },
  {
    name: 'People all of',
    field: 'People',
    operator: 'allOf',
    values: (w) => ({ personMultiselect: [w.personId] }),
    expected: [INTERVIEW],
  },
  {
    name: 'People not all of',
    field: 'People',
    operator: 'notAllOf',
    values: (w) => ({ personMultiselect: [w.personId] }),
    expected: except(INTERVIEW),
  },
  // Select with several selections: one of, not one of, all of, not all of, empty, not empty
  {
    name: 'SELECT one of',
    field: custom('segment', 'SELECT'),
    operator: 'oneOf',
    values: (w) => ({ optionMultiselect: [w.options.smb] }),
    expected: [INTERVIEW],
  },
  {
    name: 'SELECT not one of',
    field: custom('segment', 'SELECT'),
    operator: 'notOneOf',
    values: (w) => ({ optionMultiselect: [w.options.smb] }),
    expected: except(INTERVIEW),
  },
  {
    name: 'SELECT all of',
    field: custom('segment', 'SELECT'),
    operator: 'allOf',
    values: (w) => ({ optionMultiselect: [w.options.smb, w.options.enterprise] }),
    expected: [],
  },
  {
    name: 'SELECT not all of',
    field: custom('segment', 'SELECT'),
    operator: 'notAllOf',
    values: (w) => ({ optionMultiselect: [w.options.smb, w.options.enterprise] }),
    expected: ALL,
  },
  { name: 'SELECT empty', field: custom('segment', 'SELECT'), operator: 'empty', expected: [BLANK, CHURN] },
  {
    name: 'SELECT not empty',
    field: custom('segment', 'SELECT'),
    operator: 'notEmpty',
    expected: [INTERVIEW, PRICING],
  },
  // Text: contains, not contains, is, is not, empty, not empty
  {
    name: 'TEXT contains',
    field: custom('source', 'TEXT'),
    operator: 'contains',
    values: () => ({ text: 'zoom' }),
    expected: [INTERVIEW],
  },
  {
    name: 'TEXT not contains',
    field: custom('source', 'TEXT'),
    operator: 'notContains',
    values: () => ({ text: 'zoom' }),
    expected: except(INTERVIEW),
  },
  {
    name: 'TEXT is',
    field: custom('source', 'TEXT'),
    operator: 'is',
    values: () => ({ text: 'phone' }),
    expected: [PRICING],
  },
  {
    name: 'TEXT is not',
    field: custom('source', 'TEXT'),
    operator: 'isNot',
    values: () => ({ text: 'phone' }),
    expected: except(PRICING),
  },
  { name: 'TEXT empty', field: custom('source', 'TEXT'), operator: 'empty', expected: [BLANK, CHURN] },
  { name: 'TEXT not empty', field: custom('source', 'TEXT'), operator: 'notEmpty', expected: [INTERVIEW, PRICING] },
  // Number: is, is not, greater, less, empty, not empty
  {
    name: 'NUMBER is',
    field: custom('score', 'NUMBER'),
    operator: 'is',
    values: () => ({ double: 8 }),
    expected: [INTERVIEW],
  },
  {
    name: 'NUMBER is not',
    field: custom('score', 'NUMBER'),
    operator: 'isNot',
    values: () => ({ double: 8 }),
    expected: except(INTERVIEW),
  },
  {
    name: 'NUMBER greater',
    field: custom('score', 'NUMBER'),
    operator: 'greater',
    values: () => ({ double: 5 }),
    expected: [INTERVIEW],
  },
  {
    name: 'NUMBER less',
    field: custom('score', 'NUMBER'),
    operator: 'less',
    values: () => ({ double: 5 }),
    expected: [PRICING],
  },
  { name: 'NUMBER empty', field: custom('score', 'NUMBER'), operator: 'empty', expected: [BLANK, CHURN] },
  { name: 'NUMBER not empty', field: custom('score', 'NUMBER'), operator: 'notEmpty', expected: [INTERVIEW, PRICING] },
  // Boolean: is (never set reads as false)
  {
    name: 'BOOLEAN is true',
    field: custom('followUp', 'BOOLEAN'),
    operator: 'is',
    values: () => ({ boolean: true }),
    expected: [INTERVIEW],
  },
  {
    name: 'BOOLEAN is false',
    field: custom('followUp', 'BOOLEAN'),
    operator: 'is',
    values: () => ({ boolean: false }),
    expected: except(INTERVIEW),
  },
  // Datetime: after, before, empty, not empty
  {
    name: 'DATETIME after',
    field: custom('interviewed', 'DATETIME'),
    operator: 'after',
    values: () => ({ relativeDate: '1y' }),
    expected: [PRICING],
  },
  {
    name: 'DATETIME before',
    field: custom('interviewed', 'DATETIME'),
    operator: 'before',
    values: () => ({ relativeDate: '1y' }),
    expected: [INTERVIEW],
  },
  { name: 'DATETIME empty', field: custom('interviewed', 'DATETIME'), operator: 'empty', expected: [BLANK, CHURN] },
  {
    name: 'DATETIME not empty',
    field: custom('interviewed', 'DATETIME'),
    operator: 'notEmpty',
    expected: [INTERVIEW, PRICING],
  },
];

describe('filter operators on PostgreSQL (000 §5)', () => {
  it.each(ROWS)('$name', async (row) => {
    const field = typeof row.field === 'string' ? row.field : row.field(w);
    const key = typeof field === 'string' ? field : (field.id as string);
    const form = { id: 'f1', field, operator: row.operator, values: row.values ? { [key]: row.values(w) } : {} };
    const results = await searchOk(w.f.admin, {
      resultTypes: [row.type ?? 'NOTE'],
      filter: { combinator: 'and', forms: [form] },
    });
    expect(results.hits.map((h) => h.title).sort()).toEqual([...row.expected].sort());
    expect(results.totalCount).toBe(row.expected.length);
  });

  it('combines forms with or', async () => {
    const forms = [
      { id: 'a', field: 'Archived', operator: 'is', values: { Archived: { boolean: true } } },
      { id: 'b', field: 'Content', operator: 'empty', values: {} },
    ];
    const results = await searchOk(w.f.admin, {
      resultTypes: ['NOTE'],
      filter: JSON.stringify({ combinator: 'or', forms }),
    });
    expect(results.hits.map((h) => h.title).sort()).toEqual([BLANK, PRICING]);
  });

  it('applies the scope lists: projects, tags and folders', async () => {
    const titles = async (input: Record<string, unknown>) =>
      (await searchOk(w.f.admin, { resultTypes: ['NOTE'], ...input })).hits.map((h) => h.title).sort();
    expect(await titles({ projectIds: [w.p2] })).toEqual([CHURN]);
    expect(await titles({ tagIds: [w.tags.usability] })).toEqual([INTERVIEW]);
    expect(await titles({ projectCategoryIds: [w.folderId] })).toEqual([BLANK, INTERVIEW, PRICING].sort());
  });

  it('sorts by a system field and by a custom field', async () => {
    const byTitle = await searchOk(w.f.admin, { resultTypes: ['NOTE'], sort: [{ field: 'Title', direction: 'DESC' }] });
    expect(byTitle.hits.map((h) => h.title)).toEqual([...ALL].sort((a, b) => b.localeCompare(a)));
    const byScore = await searchOk(w.f.admin, {
      resultTypes: ['NOTE'],
      sort: [{ field: `field.${w.fields.score}`, direction: 'ASC' }],
    });
    expect(byScore.hits.slice(0, 2).map((h) => h.title)).toEqual([PRICING, INTERVIEW]);
  });
});
