import { badFilterInput } from './errors.ts';
import {
  CUSTOM_FIELD_OBJECT_TYPES,
  CUSTOM_FIELD_TYPES,
  SYSTEM_FIELDS,
  isCustomFieldId,
  isSystemField,
  type CustomFieldObjectType,
  type CustomFieldRef,
  type CustomFieldType,
  type FilterField,
} from './fields.ts';
import { COMBINATORS, type Combinator, type FieldForm, type FilterForm } from './form.ts';
import {
  ALL_TIME,
  OPERAND_TYPES,
  RELATIVE_DATES,
  isMultiselect,
  type OperandType,
  type OperandValues,
} from './operands.ts';
import { OPERATORS, operatorLabel, operatorsFor, type Operator } from './operators.ts';

/** Limits on a filter as input; 000 names none, so these keep a filter to what a screen can build. */
export const FILTER_LIMITS = {
  /** Characters of a filter sent as JSON text (as a project view stores it). */
  jsonChars: 100_000,
  forms: 100,
  formId: 100,
  /** As long as a search query may be (000 §9). */
  text: 2000,
  /** Ids in one multiselect. */
  listItems: 1000,
} as const;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (items: readonly string[]): string => items.join(', ');

/**
 * Reads a filter form given as an object or as JSON text (002 §5). Null, undefined and blank text
 * mean no filter. Every problem is a FilterError naming the path of the bad part.
 */
export function parseFilter(input: unknown, field = 'filter'): FilterForm | null {
  if (input === null || input === undefined) return null;
  let value: unknown = input;
  if (typeof input === 'string') {
    if (input.trim() === '') return null;
    if (input.length > FILTER_LIMITS.jsonChars) {
      throw badFilterInput(field, `The ${field} can be at most ${FILTER_LIMITS.jsonChars} characters of JSON.`);
    }
    try {
      value = JSON.parse(input);
    } catch {
      throw badFilterInput(field, `The ${field} is not valid JSON.`);
    }
  }
  if (!isObject(value))
    throw badFilterInput(field, `The ${field} must be an object with a combinator and a list of forms.`);
  const combinator = parseCombinator(value.combinator, `${field}.combinator`);
  const forms = value.forms ?? [];
  if (!Array.isArray(forms)) throw badFilterInput(`${field}.forms`, `${field}.forms must be a list of field forms.`);
  if (forms.length > FILTER_LIMITS.forms) {
    throw badFilterInput(`${field}.forms`, `A filter can have at most ${FILTER_LIMITS.forms} field forms.`);
  }
  const parsed = forms.map((form, i) => parseFieldForm(form, `${field}.forms.${i}`));
  const seen = new Set<string>();
  parsed.forEach((form, i) => {
    if (seen.has(form.id)) throw badFilterInput(`${field}.forms.${i}.id`, `Two field forms share the id ${form.id}.`);
    seen.add(form.id);
  });
  return { combinator, forms: parsed };
}

function parseCombinator(raw: unknown, path: string): Combinator {
  if (raw === undefined || raw === null) return 'and';
  const combinator = typeof raw === 'string' ? raw.toLowerCase() : raw;
  if (!(COMBINATORS as readonly unknown[]).includes(combinator)) {
    throw badFilterInput(path, `${path} must be and or or.`);
  }
  return combinator as Combinator;
}

function parseFieldForm(raw: unknown, path: string): FieldForm {
  if (!isObject(raw))
    throw badFilterInput(path, `${path} must be an object with an id, a field, an operator and values.`);
  const { id, hidden } = raw;
  if (typeof id !== 'string' || id.trim() === '' || id.length > FILTER_LIMITS.formId) {
    throw badFilterInput(`${path}.id`, `${path}.id must be text of 1 to ${FILTER_LIMITS.formId} characters.`);
  }
  if (hidden !== undefined && hidden !== null && typeof hidden !== 'boolean') {
    throw badFilterInput(`${path}.hidden`, `${path}.hidden must be true or false.`);
  }
  const field = parseField(raw.field, `${path}.field`);
  const operator = parseOperator(raw.operator, field, `${path}.operator`);
  const values = parseValues(raw.values, `${path}.values`);
  const form: FieldForm = { id, field, operator, values };
  if (hidden === true) form.hidden = true;
  return form;
}

const fieldName = (field: FilterField): string => (typeof field === 'string' ? field : field.id);

export function parseField(raw: unknown, path: string): FilterField {
  if (isSystemField(raw)) return raw;
  if (isCustomFieldId(raw)) {
    throw badFilterInput(path, `${path}: a custom field is an object with its id, fieldType and objectType.`);
  }
  if (!isObject(raw)) {
    throw badFilterInput(path, `${path} must be a system field (${list(SYSTEM_FIELDS)}) or a custom field.`);
  }
  const { id, fieldType, objectType, max } = raw;
  if (!isCustomFieldId(id)) {
    throw badFilterInput(`${path}.id`, `${path}.id must be field., question. or personField. followed by a UUID.`);
  }
  if (!(CUSTOM_FIELD_TYPES as readonly unknown[]).includes(fieldType)) {
    throw badFilterInput(`${path}.fieldType`, `${path}.fieldType must be one of ${list(CUSTOM_FIELD_TYPES)}.`);
  }
  const isPersonId = id.startsWith('personField.');
  const owner = objectType ?? (isPersonId ? 'PERSON' : undefined);
  if (!(CUSTOM_FIELD_OBJECT_TYPES as readonly unknown[]).includes(owner)) {
    throw badFilterInput(`${path}.objectType`, `${path}.objectType must be one of ${list(CUSTOM_FIELD_OBJECT_TYPES)}.`);
  }
  if (isPersonId !== (owner === 'PERSON')) {
    throw badFilterInput(`${path}.objectType`, `${path}: person fields, and only they, have ids starting personField.`);
  }
  const field: CustomFieldRef = {
    id,
    fieldType: fieldType as CustomFieldType,
    objectType: owner as CustomFieldObjectType,
  };
  if (max !== undefined && max !== null) {
    if (fieldType !== 'SELECT') throw badFilterInput(`${path}.max`, `${path}.max is for select fields only.`);
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 1) {
      throw badFilterInput(`${path}.max`, `${path}.max must be a whole number of 1 or more.`);
    }
    field.max = max;
  }
  return field;
}

function parseOperator(raw: unknown, field: FilterField, path: string): Operator | null {
  if (raw === undefined || raw === null) return null;
  const allowed = operatorsFor(field);
  if (!(OPERATORS as readonly unknown[]).includes(raw) || !allowed.includes(raw as Operator)) {
    const shown = typeof raw === 'string' ? raw : JSON.stringify(raw);
    const words = allowed.map((op) => `${op} (${operatorLabel(field, op)})`);
    throw badFilterInput(
      path,
      `${path}: ${shown} is not an operator of ${fieldName(field)}; use one of ${list(words)}.`,
    );
  }
  return raw as Operator;
}

function parseValues(raw: unknown, path: string): Partial<Record<string, OperandValues>> {
  if (raw === undefined || raw === null) return {};
  if (!isObject(raw)) throw badFilterInput(path, `${path} must be an object keyed by field, then by operand type.`);
  const values: Partial<Record<string, OperandValues>> = {};
  for (const [key, byOperand] of Object.entries(raw)) {
    if (byOperand === undefined || byOperand === null) continue;
    if (!isObject(byOperand))
      throw badFilterInput(`${path}.${key}`, `${path}.${key} must be an object keyed by operand type.`);
    const operands: OperandValues = {};
    for (const [operand, value] of Object.entries(byOperand)) {
      if (!(OPERAND_TYPES as readonly string[]).includes(operand)) {
        throw badFilterInput(
          `${path}.${key}.${operand}`,
          `${path}.${key}: ${operand} is not an operand type; use one of ${list(OPERAND_TYPES)}.`,
        );
      }
      if (value === undefined || value === null) continue;
      Object.assign(operands, { [operand]: parseOperand(operand as OperandType, value, `${path}.${key}.${operand}`) });
    }
    values[key] = operands;
  }
  return values;
}

const INT = /^-?\d+$/;
/** "Digits with optional decimal point" (000 §3); a sign is allowed so number fields can go below zero. */
const DOUBLE = /^-?(\d+\.?\d*|\.\d+)$/;

function parseOperand(type: OperandType, value: unknown, path: string): unknown {
  if (isMultiselect(type)) {
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
      throw badFilterInput(path, `${path} must be a list of ids.`);
    }
    if (value.length > FILTER_LIMITS.listItems) {
      throw badFilterInput(path, `${path} can hold at most ${FILTER_LIMITS.listItems} ids.`);
    }
    return [...(value as string[])];
  }
  switch (type) {
    case 'boolean':
      if (typeof value !== 'boolean') throw badFilterInput(path, `${path} must be true or false.`);
      return value;
    case 'int': {
      const n = typeof value === 'string' && INT.test(value.trim()) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isSafeInteger(n))
        throw badFilterInput(path, `${path} must be a whole number.`);
      return n;
    }
    case 'double': {
      const n = typeof value === 'string' && DOUBLE.test(value.trim()) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n)) {
        throw badFilterInput(path, `${path} must be a number: digits with an optional decimal point.`);
      }
      return n;
    }
    case 'text':
      if (typeof value !== 'string') throw badFilterInput(path, `${path} must be text.`);
      if (value.length > FILTER_LIMITS.text)
        throw badFilterInput(path, `${path} can be at most ${FILTER_LIMITS.text} characters.`);
      return value;
    case 'relativeDate':
      if (value !== ALL_TIME && !(RELATIVE_DATES as readonly unknown[]).includes(value)) {
        throw badFilterInput(path, `${path} must be one of ${list(RELATIVE_DATES)} or ${ALL_TIME}.`);
      }
      return value;
  }
}
