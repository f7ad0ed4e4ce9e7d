import { describe, expect, it } from 'vitest';
import {
  CUSTOM_FIELD_TYPES,
  SYSTEM_FIELDS,
  type CustomFieldType,
  type FilterField,
  type SystemField,
} from './fields.ts';
import { operandFor, operatorLabel, operatorsFor, allowsOperator, takesValue, OPERATORS } from './operators.ts';
import { customField } from './test-fields.ts';

/** 000 §5, "Operators by field type", row by row, in the spec's own words. */
const CUSTOM_ROWS: Array<[string, CustomFieldType[], string[]]> = [
  ['boolean', ['BOOLEAN'], ['is']],
  ['datetime', ['DATETIME'], ['after', 'before', 'empty', 'not empty']],
  [
    'email, phone, text, URL',
    ['EMAIL', 'PHONE', 'TEXT', 'URL'],
    ['contains', 'not contains', 'is', 'is not', 'empty', 'not empty'],
  ],
  [
    'NPS, number, ARR, rating, CSAT',
    ['NPS', 'NUMBER', 'ARR', 'RATING', 'CSAT'],
    ['is', 'is not', 'greater', 'less', 'empty', 'not empty'],
  ],
  [
    'person custom field; select with several selections',
    ['PERSON', 'SELECT'],
    ['one of', 'not one of', 'all of', 'not all of', 'empty', 'not empty'],
  ],
];

const SYSTEM_ROWS: Array<[string, SystemField[], string[]]> = [
  ['Archived, Published, Starred, AiGenerated', ['Archived', 'Published', 'Starred', 'AiGenerated'], ['is']],
  ['Content', ['Content'], ['contains', 'not contains', 'empty', 'not empty']],
  ['Contributors, Authors', ['Contributors', 'Authors'], ['one of', 'not one of']],
  ['Created, Updated', ['Created', 'Updated'], ['after', 'before']],
  [
    'Highlight, Note, Project, Folder, Channel',
    ['Highlight', 'Note', 'Project', 'ProjectCategory', 'Channel'],
    ['one of', 'not one of'],
  ],
  ['HighlightCount', ['HighlightCount'], ['is', 'greater', 'less']],
  [
    'Insights, People, TagBoard, TagGroup',
    ['Insights', 'People', 'TagBoard', 'TagGroup'],
    ['one of', 'not one of', 'all of', 'not all of'],
  ],
  ['Tags', ['Tags'], ['one of', 'not one of', 'all of', 'not all of', 'empty', 'not empty']],
  ['Name, Title', ['Name', 'Title'], ['contains', 'not contains', 'is', 'is not']],
  [
    'ImportOrigin, EnrichmentOrigin',
    ['ImportOrigin', 'EnrichmentOrigin'],
    ['contains', 'not contains', 'empty', 'not empty'],
  ],
];

const words = (field: FilterField) => operatorsFor(field).map((op) => operatorLabel(field, op));

describe('operators by field type (000 §5)', () => {
  for (const [row, types, expected] of CUSTOM_ROWS) {
    for (const type of types) {
      for (const objectType of ['NOTE', 'INSIGHT', 'WORKSPACE', 'PERSON'] as const) {
        it(`${row}: a ${objectType.toLowerCase()} ${type} field offers ${expected.join(', ')}`, () => {
          expect(words(customField(type, objectType))).toEqual(expected);
        });
      }
    }
  }

  it('select with max 1: is one of, not one of, empty, not empty', () => {
    expect(words(customField('SELECT', 'NOTE', { max: 1 }))).toEqual(['is one of', 'not one of', 'empty', 'not empty']);
  });

  it('a select allowing two or more selections keeps the several-selections row', () => {
    expect(words(customField('SELECT', 'INSIGHT', { max: 2 }))).toEqual([
      'one of',
      'not one of',
      'all of',
      'not all of',
      'empty',
      'not empty',
    ]);
  });

  for (const [row, fields, expected] of SYSTEM_ROWS) {
    for (const field of fields) {
      it(`${row}: ${field} offers ${expected.join(', ')}`, () => {
        expect(words(field)).toEqual(expected);
      });
    }
  }

  it('covers every system field and every custom field type exactly once', () => {
    const systemCovered = SYSTEM_ROWS.flatMap(([, fields]) => fields).sort();
    expect(systemCovered).toEqual([...SYSTEM_FIELDS].sort());
    const customCovered = CUSTOM_ROWS.flatMap(([, types]) => types).sort();
    expect(customCovered).toEqual([...CUSTOM_FIELD_TYPES].sort());
  });

  it('refuses every operator outside a field’s row', () => {
    for (const field of [...SYSTEM_FIELDS, ...CUSTOM_FIELD_TYPES.map((t) => customField(t))] as FilterField[]) {
      const allowed = operatorsFor(field);
      for (const op of OPERATORS) expect(allowsOperator(field, op)).toBe(allowed.includes(op));
    }
  });
});

describe('operand types', () => {
  it('empty and not empty take no value', () => {
    expect(takesValue('empty')).toBe(false);
    expect(takesValue('notEmpty')).toBe(false);
    expect(operandFor('Tags', 'empty')).toBeNull();
    expect(operandFor(customField('TEXT'), 'notEmpty')).toBeNull();
  });

  it.each([
    ['Archived', 'is', 'boolean'],
    ['Content', 'contains', 'text'],
    ['Contributors', 'oneOf', 'userMultiselect'],
    ['Authors', 'notOneOf', 'userMultiselect'],
    ['Created', 'after', 'relativeDate'],
    ['HighlightCount', 'greater', 'int'],
    ['Insights', 'allOf', 'insightMultiselect'],
    ['People', 'oneOf', 'personMultiselect'],
    ['ProjectCategory', 'oneOf', 'folderMultiselect'],
    ['Project', 'oneOf', 'projectMultiselect'],
    ['TagBoard', 'oneOf', 'tagBoardMultiselect'],
    ['TagGroup', 'oneOf', 'tagGroupMultiselect'],
    ['Tags', 'oneOf', 'tagMultiselect'],
    ['Highlight', 'oneOf', 'highlightMultiselect'],
    ['Note', 'oneOf', 'noteMultiselect'],
    ['Channel', 'oneOf', 'channelMultiselect'],
  ] as const)('%s %s reads a %s', (field, op, operand) => {
    expect(operandFor(field, op)).toBe(operand);
  });

  it.each([
    ['BOOLEAN', 'boolean'],
    ['DATETIME', 'relativeDate'],
    ['TEXT', 'text'],
    ['URL', 'text'],
    ['NPS', 'int'],
    ['CSAT', 'int'],
    ['RATING', 'int'],
    ['NUMBER', 'double'],
    ['ARR', 'double'],
    ['PERSON', 'userMultiselect'],
    ['SELECT', 'optionMultiselect'],
  ] as const)('a %s field reads a %s', (type, operand) => {
    const field = customField(type);
    expect(operandFor(field, operatorsFor(field)[0]!)).toBe(operand);
  });
});
