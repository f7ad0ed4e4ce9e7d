import { internalFilterError } from '../errors.ts';
import { isCustomField } from '../fields.ts';
import { formValue, type FieldForm } from '../form.ts';
import { resolveRelativeDate, type OperandValue, type RelativeDate } from '../operands.ts';
import type { Operator } from '../operators.ts';
import type { SearchResultType } from '../search-types.ts';
import { attributeFor, type Attribute } from './attributes.ts';
import {
  FALSE,
  TRUE,
  and,
  contains,
  empty,
  equalTo,
  greaterThan,
  isIn,
  lessThan,
  not,
  or,
  overlaps,
  type Predicate,
} from './predicate.ts';

export interface CompileContext {
  /** Relative dates count back from here. */
  now: Date;
  /** The person searching, whom the `me` user value and the Starred field mean; null when anonymous. */
  userId: string | null;
}

const NEGATED: Partial<Record<Operator, Operator>> = {
  isNot: 'is',
  notContains: 'contains',
  notOneOf: 'oneOf',
  notAllOf: 'allOf',
  notEmpty: 'empty',
};

/**
 * One form as a predicate for one result type. The form is normalised: its operator is allowed
 * for its field and it counts (see form.ts).
 */
export function compileForm(form: FieldForm, type: SearchResultType, ctx: CompileContext): Predicate {
  const { field, operator } = form;
  if (operator === null) return TRUE;
  if (type === 'PERSON' && isCustomField(field) && field.objectType === 'PERSON' && field.fieldType === 'PERSON') {
    // 000 §5: a person custom field may not be used inside a person filter.
    throw internalFilterError(
      'filter',
      `The person field ${field.id} cannot be used in a person filter (form ${form.id}).`,
    );
  }
  const positive = NEGATED[operator];
  if (positive !== undefined) return not(compileForm({ ...form, operator: positive }, type, ctx));

  const attribute = attributeFor(type, field);
  const value = formValue(form);
  // A result without the attribute reads it as empty: only "empty" and "is false" hold.
  if (attribute === undefined) return operator === 'empty' || (operator === 'is' && value === false) ? TRUE : FALSE;
  if (field === 'Starred') return value === true ? starredBy(attribute, ctx) : not(starredBy(attribute, ctx));
  return compilePositive(operator, attribute, value, ctx);
}

function compilePositive(
  operator: Operator,
  attribute: Attribute,
  value: OperandValue | undefined,
  ctx: CompileContext,
): Predicate {
  const name = attribute.name;
  switch (operator) {
    case 'empty':
      return empty(name);
    case 'is':
      // A boolean never set reads as false, so "is false" is "is not true".
      if (value === false) return not(equalTo(name, true));
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? equalTo(name, value)
        : FALSE;
    case 'contains':
      return typeof value === 'string' ? contains(name, value) : FALSE;
    case 'greater':
      return typeof value === 'number' ? greaterThan(name, value) : FALSE;
    case 'less':
      return typeof value === 'number' ? lessThan(name, value) : FALSE;
    case 'after':
      return typeof value === 'string' ? greaterThan(name, instant(value, ctx)) : FALSE;
    case 'before':
      return typeof value === 'string' ? lessThan(name, instant(value, ctx)) : FALSE;
    case 'oneOf': {
      const chosen = ids(value);
      const users = chosen.filter((id) => id !== 'unassigned').map((id) => (id === 'me' ? ctx.userId : id));
      const known = users.filter((id): id is string => id !== null);
      const members = attribute.many ? overlaps(name, known) : isIn(name, known);
      return chosen.includes('unassigned') ? or(members, empty(name)) : members;
    }
    case 'allOf':
      return and(...ids(value).map((id) => member(attribute, id, ctx)));
    default:
      return FALSE;
  }
}

const instant = (value: string, ctx: CompileContext): string =>
  resolveRelativeDate(value as RelativeDate, ctx.now).toISOString();
const ids = (value: OperandValue | undefined): string[] => (Array.isArray(value) ? value : []);

/** Starred is per person: the results the searcher starred. */
const starredBy = (attribute: Attribute, ctx: CompileContext): Predicate =>
  ctx.userId === null ? FALSE : overlaps(attribute.name, [ctx.userId]);

/** One chosen id; the user values `me` and `unassigned` mean the searcher and no user (operands.ts). */
function member(attribute: Attribute, id: string, ctx: CompileContext): Predicate {
  if (id === 'unassigned') return empty(attribute.name);
  const resolved = id === 'me' ? ctx.userId : id;
  if (resolved === null) return FALSE;
  return attribute.many ? overlaps(attribute.name, [resolved]) : isIn(attribute.name, [resolved]);
}
