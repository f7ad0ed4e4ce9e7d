/**
 * The rules engine's operators by field type (001 §5), shared by the server and the rule builder
 * in the web app, so the builder offers exactly what the server accepts.
 */
export const FIELD_TYPES = ['string', 'number', 'boolean', 'date', 'array', 'enum'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const OPERATORS_BY_TYPE = {
  string: ['equal', 'notEqual', 'contains', 'startsWith', 'endsWith'],
  number: ['greaterThanOrEqual', 'equal', 'notEqual', 'greaterThan', 'lessThan', 'lessThanOrEqual'],
  boolean: ['equal', 'notEqual'],
  date: ['equal', 'notEqual', 'before', 'after', 'onOrBefore', 'onOrAfter'],
  array: ['contains', 'notContains', 'isEmpty', 'isNotEmpty', 'lengthEqual', 'lengthGreaterThan', 'lengthLessThan'],
  enum: ['equal', 'notEqual', 'in', 'notIn'],
} as const satisfies Record<FieldType, readonly string[]>;

export type Operator = (typeof OPERATORS_BY_TYPE)[FieldType][number];

/** Operators that compare with nothing (the value is ignored). */
export const VALUELESS_OPERATORS: readonly string[] = ['isEmpty', 'isNotEmpty'];

/** Human labels for the rule builder. */
export const OPERATOR_LABELS: Record<Operator, string> = {
  equal: 'is',
  notEqual: 'is not',
  contains: 'contains',
  notContains: 'does not contain',
  startsWith: 'starts with',
  endsWith: 'ends with',
  greaterThan: 'is greater than',
  greaterThanOrEqual: 'is at least',
  lessThan: 'is less than',
  lessThanOrEqual: 'is at most',
  before: 'is before',
  after: 'is after',
  onOrBefore: 'is on or before',
  onOrAfter: 'is on or after',
  isEmpty: 'is empty',
  isNotEmpty: 'is not empty',
  lengthEqual: 'has exactly',
  lengthGreaterThan: 'has more than',
  lengthLessThan: 'has fewer than',
  in: 'is one of',
  notIn: 'is none of',
};

export const operatorsFor = (type: FieldType): readonly Operator[] => OPERATORS_BY_TYPE[type];
