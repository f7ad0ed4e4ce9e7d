import { isCustomField, isSingleSelect, type CustomFieldType, type FilterField, type SystemField } from './fields.ts';
import type { OperandType } from './operands.ts';

export const OPERATORS = [
  'is',
  'isNot',
  'contains',
  'notContains',
  'greater',
  'less',
  'after',
  'before',
  'oneOf',
  'notOneOf',
  'allOf',
  'notAllOf',
  'empty',
  'notEmpty',
] as const;
export type Operator = (typeof OPERATORS)[number];

/** The words 000 §5 uses for each operator. */
export const OPERATOR_LABELS: Readonly<Record<Operator, string>> = {
  is: 'is',
  isNot: 'is not',
  contains: 'contains',
  notContains: 'not contains',
  greater: 'greater',
  less: 'less',
  after: 'after',
  before: 'before',
  oneOf: 'one of',
  notOneOf: 'not one of',
  allOf: 'all of',
  notAllOf: 'not all of',
  empty: 'empty',
  notEmpty: 'not empty',
};

/** Empty and not empty take no value (000 §5). */
export const VALUELESS_OPERATORS: readonly Operator[] = ['empty', 'notEmpty'];
export const takesValue = (operator: Operator): boolean => !VALUELESS_OPERATORS.includes(operator);

const BOOLEAN: readonly Operator[] = ['is'];
const DATETIME: readonly Operator[] = ['after', 'before', 'empty', 'notEmpty'];
const TEXT: readonly Operator[] = ['contains', 'notContains', 'is', 'isNot', 'empty', 'notEmpty'];
const NUMBER: readonly Operator[] = ['is', 'isNot', 'greater', 'less', 'empty', 'notEmpty'];
const MULTI: readonly Operator[] = ['oneOf', 'notOneOf', 'allOf', 'notAllOf', 'empty', 'notEmpty'];
const SINGLE_SELECT: readonly Operator[] = ['oneOf', 'notOneOf', 'empty', 'notEmpty'];
const ONE_OF: readonly Operator[] = ['oneOf', 'notOneOf'];
const ALL_OF: readonly Operator[] = ['oneOf', 'notOneOf', 'allOf', 'notAllOf'];
const CONTAINS_OR_EMPTY: readonly Operator[] = ['contains', 'notContains', 'empty', 'notEmpty'];
const DATE_RANGE: readonly Operator[] = ['after', 'before'];

/** Operators by custom field type (000 §5); a select with max 1 has its own row. */
export const CUSTOM_FIELD_OPERATORS: Readonly<Record<CustomFieldType, readonly Operator[]>> = {
  BOOLEAN,
  DATETIME,
  EMAIL: TEXT,
  PHONE: TEXT,
  TEXT,
  URL: TEXT,
  NPS: NUMBER,
  NUMBER,
  ARR: NUMBER,
  RATING: NUMBER,
  CSAT: NUMBER,
  PERSON: MULTI,
  SELECT: MULTI,
};
export const SINGLE_SELECT_OPERATORS = SINGLE_SELECT;

/** Operators by system field (000 §5); Folder in the table is the ProjectCategory field. */
export const SYSTEM_FIELD_OPERATORS: Readonly<Record<SystemField, readonly Operator[]>> = {
  Archived: BOOLEAN,
  Published: BOOLEAN,
  Starred: BOOLEAN,
  AiGenerated: BOOLEAN,
  Content: CONTAINS_OR_EMPTY,
  Contributors: ONE_OF,
  Authors: ONE_OF,
  Created: DATE_RANGE,
  Updated: DATE_RANGE,
  Highlight: ONE_OF,
  Note: ONE_OF,
  Project: ONE_OF,
  ProjectCategory: ONE_OF,
  Channel: ONE_OF,
  HighlightCount: ['is', 'greater', 'less'],
  Insights: ALL_OF,
  People: ALL_OF,
  TagBoard: ALL_OF,
  TagGroup: ALL_OF,
  Tags: [...ALL_OF, 'empty', 'notEmpty'],
  Name: ['contains', 'notContains', 'is', 'isNot'],
  Title: ['contains', 'notContains', 'is', 'isNot'],
  ImportOrigin: CONTAINS_OR_EMPTY,
  EnrichmentOrigin: CONTAINS_OR_EMPTY,
};

/** The operators a field allows, in the order they are offered; the first is the fallback. */
export function operatorsFor(field: FilterField): readonly Operator[] {
  if (!isCustomField(field)) return SYSTEM_FIELD_OPERATORS[field];
  return isSingleSelect(field) ? SINGLE_SELECT : CUSTOM_FIELD_OPERATORS[field.fieldType];
}

export const allowsOperator = (field: FilterField, operator: Operator): boolean =>
  operatorsFor(field).includes(operator);

/** The operator's words for a field: a single select reads "is one of" (000 §5). */
export function operatorLabel(field: FilterField, operator: Operator): string {
  if (operator === 'oneOf' && isSingleSelect(field)) return 'is one of';
  return OPERATOR_LABELS[operator];
}

const SYSTEM_OPERANDS: Readonly<Record<SystemField, OperandType>> = {
  Archived: 'boolean',
  Published: 'boolean',
  Starred: 'boolean',
  AiGenerated: 'boolean',
  Content: 'text',
  Name: 'text',
  Title: 'text',
  ImportOrigin: 'text',
  EnrichmentOrigin: 'text',
  Contributors: 'userMultiselect',
  Authors: 'userMultiselect',
  Created: 'relativeDate',
  Updated: 'relativeDate',
  Highlight: 'highlightMultiselect',
  Note: 'noteMultiselect',
  Project: 'projectMultiselect',
  ProjectCategory: 'folderMultiselect',
  Channel: 'channelMultiselect',
  HighlightCount: 'int',
  Insights: 'insightMultiselect',
  People: 'personMultiselect',
  TagBoard: 'tagBoardMultiselect',
  TagGroup: 'tagGroupMultiselect',
  Tags: 'tagMultiselect',
};

/** Scores are whole numbers; numbers and ARR take decimals ("digits with optional decimal point"). */
const CUSTOM_OPERANDS: Readonly<Record<CustomFieldType, OperandType>> = {
  BOOLEAN: 'boolean',
  DATETIME: 'relativeDate',
  EMAIL: 'text',
  PHONE: 'text',
  TEXT: 'text',
  URL: 'text',
  NPS: 'int',
  RATING: 'int',
  CSAT: 'int',
  NUMBER: 'double',
  ARR: 'double',
  PERSON: 'userMultiselect',
  SELECT: 'optionMultiselect',
};

/** The operand type a field's value has; the operator matters only in that empty and not empty take none. */
export function operandTypeFor(field: FilterField): OperandType {
  return isCustomField(field) ? CUSTOM_OPERANDS[field.fieldType] : SYSTEM_OPERANDS[field];
}

/** The operand the form's operator reads, or null for the operators that take no value. */
export function operandFor(field: FilterField, operator: Operator): OperandType | null {
  return takesValue(operator) ? operandTypeFor(field) : null;
}
