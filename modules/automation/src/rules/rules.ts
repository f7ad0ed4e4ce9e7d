import { FIELD_TYPES, OPERATORS_BY_TYPE, VALUELESS_OPERATORS, type FieldType, type Operator } from './operators.ts';

/**
 * Rule sets (001 §3.2, §5): a combinator (AND, OR) over at least one condition (field, operator,
 * value). `buildRules` checks a set against the fields of its trigger when an automation is
 * saved; `evaluateRules` runs a checked set against a payload when an event arrives.
 * No import of the server here: the web app's rule builder uses the same checks.
 */
export const COMBINATORS = ['AND', 'OR'] as const;
export type Combinator = (typeof COMBINATORS)[number];

export interface Condition {
  field: string;
  operator: Operator;
  value?: unknown;
}

export interface RuleSet {
  combinator: Combinator;
  conditions: Condition[];
}

export interface RuleField {
  path: string;
  type: FieldType;
  options?: readonly string[];
}

/** A rule set that cannot be built; the message is one of 001 §8's. */
export class RulesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RulesError';
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a rule set against the fields its trigger offers; answers it normalised. */
export function buildRules(input: unknown, fields: readonly RuleField[]): RuleSet {
  if (!isObject(input) || !('conditions' in input) || !Array.isArray(input.conditions))
    throw new RulesError('Invalid rules structure');
  const combinator = input.combinator ?? 'AND';
  if (typeof combinator !== 'string' || !(COMBINATORS as readonly string[]).includes(combinator))
    throw new RulesError('Invalid rules structure');
  if (!input.conditions.length) throw new RulesError('Cannot build rules without any conditions');
  const byPath = new Map(fields.map((f) => [f.path, f]));
  const conditions = input.conditions.map((c) => buildCondition(c, byPath));
  return { combinator: combinator as Combinator, conditions };
}

function buildCondition(input: unknown, fields: ReadonlyMap<string, RuleField>): Condition {
  if (!isObject(input) || typeof input.field !== 'string' || typeof input.operator !== 'string')
    throw new RulesError('Invalid rules structure');
  const field = fields.get(input.field);
  if (!field) throw new RulesError(`Failed to create condition: unknown field ${input.field}`);
  if (!(FIELD_TYPES as readonly string[]).includes(field.type))
    throw new RulesError(`Failed to create condition: unknown field type ${field.type}`);
  const allowed: readonly string[] = OPERATORS_BY_TYPE[field.type];
  if (!allowed.includes(input.operator))
    throw new RulesError(`Invalid operator ${input.operator} for field type ${field.type}`);
  const operator = input.operator as Operator;
  if (VALUELESS_OPERATORS.includes(operator)) return { field: field.path, operator };
  const problem = valueProblem(field, operator, input.value);
  if (problem) throw new RulesError(`Failed to create condition: ${problem}`);
  return { field: field.path, operator, value: input.value };
}

/** Why a condition's value does not suit its field and operator; null when it does. */
function valueProblem(field: RuleField, operator: Operator, value: unknown): string | null {
  if (value === undefined || value === null) return `${field.path} needs a value to compare with`;
  switch (field.type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : `${field.path} compares with a number`;
    case 'boolean':
      return typeof value === 'boolean' ? null : `${field.path} compares with true or false`;
    case 'date':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value))
        ? null
        : `${field.path} compares with a date`;
    case 'array':
      if (operator.startsWith('length'))
        return Number.isInteger(value) && (value as number) >= 0
          ? null
          : `${field.path} compares its length with a whole number`;
      return ['string', 'number', 'boolean'].includes(typeof value) ? null : `${field.path} compares with one item`;
    case 'enum': {
      const values = operator === 'in' || operator === 'notIn' ? value : [value];
      if (!Array.isArray(values) || !values.length) return `${field.path} compares with a list of values`;
      const unknown = values.find((v) => typeof v !== 'string' || (field.options && !field.options.includes(v)));
      return unknown === undefined ? null : `${String(unknown)} is not a value of ${field.path}`;
    }
    case 'string':
      return ['string', 'number', 'boolean'].includes(typeof value) ? null : `${field.path} compares with text`;
  }
}

/** The value at a dotted path of a payload; undefined when any step is missing. */
export function valueAt(payload: unknown, path: string): unknown {
  let current: unknown = payload;
  for (const step of path.split('.')) {
    if (!isObject(current)) return undefined;
    current = current[step];
  }
  return current;
}

/** AND requires every condition, OR any (001 §5). */
export function evaluateRules(
  rules: RuleSet | null | undefined,
  payload: unknown,
  fields: readonly RuleField[],
): boolean {
  if (!rules) return true;
  const types = new Map(fields.map((f) => [f.path, f.type]));
  const results = rules.conditions.map((c) =>
    evaluateCondition(c, valueAt(payload, c.field), types.get(c.field) ?? 'string'),
  );
  return rules.combinator === 'AND' ? results.every(Boolean) : results.some(Boolean);
}

const text = (v: unknown): string =>
  typeof v === 'string'
    ? v
    : v instanceof Date
      ? v.toISOString()
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v);

/** One condition. A missing value makes it true only for notEqual (001 §5). */
export function evaluateCondition(condition: Condition, actual: unknown, type: FieldType): boolean {
  const { operator, value } = condition;
  if (actual === undefined || actual === null) return operator === 'notEqual';
  switch (type) {
    case 'string':
    case 'boolean': {
      // Text is compared in string form: true equals "true", 3 equals "3".
      const a = text(actual);
      const b = text(value);
      if (operator === 'equal') return a === b;
      if (operator === 'notEqual') return a !== b;
      if (operator === 'contains') return a.includes(b);
      if (operator === 'startsWith') return a.startsWith(b);
      if (operator === 'endsWith') return a.endsWith(b);
      return false;
    }
    case 'number': {
      const a = Number(actual);
      const b = Number(value);
      if (Number.isNaN(a)) return operator === 'notEqual';
      if (operator === 'equal') return a === b;
      if (operator === 'notEqual') return a !== b;
      if (operator === 'greaterThan') return a > b;
      if (operator === 'greaterThanOrEqual') return a >= b;
      if (operator === 'lessThan') return a < b;
      if (operator === 'lessThanOrEqual') return a <= b;
      return false;
    }
    case 'date': {
      const a = Date.parse(text(actual));
      const b = Date.parse(text(value));
      if (Number.isNaN(a)) return operator === 'notEqual';
      if (operator === 'equal') return a === b;
      if (operator === 'notEqual') return a !== b;
      if (operator === 'before') return a < b;
      if (operator === 'after') return a > b;
      if (operator === 'onOrBefore') return a <= b;
      if (operator === 'onOrAfter') return a >= b;
      return false;
    }
    case 'array': {
      const items = Array.isArray(actual) ? actual : [actual];
      const has = () => items.some((item) => text(item) === text(value));
      if (operator === 'contains') return has();
      if (operator === 'notContains') return !has();
      if (operator === 'isEmpty') return items.length === 0;
      if (operator === 'isNotEmpty') return items.length > 0;
      if (operator === 'lengthEqual') return items.length === Number(value);
      if (operator === 'lengthGreaterThan') return items.length > Number(value);
      if (operator === 'lengthLessThan') return items.length < Number(value);
      return false;
    }
    case 'enum': {
      const a = text(actual);
      const list = Array.isArray(value) ? value.map(text) : [text(value)];
      if (operator === 'equal') return a === list[0];
      if (operator === 'notEqual') return a !== list[0];
      if (operator === 'in') return list.includes(a);
      if (operator === 'notIn') return !list.includes(a);
      return false;
    }
  }
}
