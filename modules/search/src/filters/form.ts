import { fieldKey, isSelectField, type FilterField } from './fields.ts';
import { ALL_TIME, type OperandValue, type OperandValues } from './operands.ts';
import { allowsOperator, operandFor, operatorsFor, type Operator } from './operators.ts';

export const COMBINATORS = ['and', 'or'] as const;
export type Combinator = (typeof COMBINATORS)[number];

/** One condition of a filter (000 §3). */
export interface FieldForm {
  id: string;
  /** Hidden forms still filter; the screen just does not show them. */
  hidden?: boolean;
  field: FilterField;
  /** Null after switching to a select field, until an operator is chosen (000 §4). */
  operator: Operator | null;
  /** Values keyed by field key (system field name or custom field id), then by operand type. */
  values: Partial<Record<string, OperandValues>>;
}

export interface FilterForm {
  combinator: Combinator;
  forms: FieldForm[];
}

/** The value the form's operator reads, or undefined when it has none (or takes none). */
export function formValue(form: FieldForm): OperandValue | undefined {
  if (form.operator === null) return undefined;
  const operand = operandFor(form.field, form.operator);
  if (operand === null) return undefined;
  return form.values[fieldKey(form.field)]?.[operand];
}

/** True for a value that counts (000 §5): non-empty text or list, any boolean, number or date. */
export function hasValue(value: OperandValue | undefined): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.length > 0;
  if (value === ALL_TIME) return false;
  return value.trim().length > 0;
}

/**
 * Whether a form takes part in a search (000 §5): it has a value, or uses empty/not empty, or is
 * the project field. A form with no operator, or one its field does not allow, never counts.
 */
export function formCounts(form: FieldForm): boolean {
  const { operator } = form;
  if (operator === null || !allowsOperator(form.field, operator)) return false;
  if (operator === 'empty' || operator === 'notEmpty') return true;
  if (form.field === 'Project') return true;
  return hasValue(formValue(form));
}

/** Blank forms are dropped before searching (000 §5). */
export function dropBlankForms(filter: FilterForm): FilterForm {
  return { combinator: filter.combinator, forms: filter.forms.filter(formCounts) };
}

/**
 * Points a form at another field (000 §4). A select field clears the operator and the values;
 * any other field keeps the operator while it still applies, else takes its first operator.
 */
export function changeField(form: FieldForm, field: FilterField): FieldForm {
  if (isSelectField(field)) return { ...form, field, operator: null, values: {} };
  const operator =
    form.operator !== null && allowsOperator(field, form.operator) ? form.operator : operatorsFor(field)[0]!;
  return { ...form, field, operator };
}
