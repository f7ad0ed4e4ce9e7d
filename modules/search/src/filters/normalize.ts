import { badFilterInput } from './errors.ts';
import { fieldKey, isUuid } from './fields.ts';
import { formCounts, type FieldForm, type FilterForm } from './form.ts';
import { isMultiselect, isUserSpecialValue, type OperandValues } from './operands.ts';
import { operandFor } from './operators.ts';
import { normalizeOptionIds } from './options.ts';

/** A user list keeps its two special values besides uuids (000 §3). */
function normalizeUserIds(ids: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of ids) {
    const trimmed = raw.trim();
    const id = isUserSpecialValue(trimmed) ? trimmed : trimmed.toLowerCase();
    if ((isUserSpecialValue(id) || isUuid(id)) && !out.includes(id)) out.push(id);
  }
  return out;
}

/** Keeps only the value the operator reads, cleaned: text trimmed, id lists de-duplicated. */
function normalizeForm(form: FieldForm): FieldForm {
  const operand = form.operator === null ? null : operandFor(form.field, form.operator);
  const key = fieldKey(form.field);
  const value = operand === null ? undefined : form.values[key]?.[operand];
  const clean: OperandValues = {};
  if (operand !== null && value !== undefined) {
    if (typeof value === 'string' && operand === 'text') clean.text = value.trim();
    else if (Array.isArray(value) && isMultiselect(operand)) {
      clean[operand] = operand === 'userMultiselect' ? normalizeUserIds(value) : normalizeOptionIds(value);
    } else Object.assign(clean, { [operand]: value });
  }
  const normalized: FieldForm = {
    id: form.id,
    field: form.field,
    operator: form.operator,
    values: operand === null ? {} : { [key]: clean },
  };
  if (form.hidden) normalized.hidden = true;
  return normalized;
}

/**
 * Normalises a filter (002 §5): values cleaned, then blank forms (empty text, all-time dates,
 * empty selectors) dropped. A filter with nothing left, the default included, counts as empty:
 * the answer is then null.
 */
export function normalizeFilter(filter: FilterForm | null | undefined): FilterForm | null {
  if (!filter) return null;
  const forms = filter.forms.map(normalizeForm).filter(formCounts);
  return forms.length > 0 ? { combinator: filter.combinator, forms } : null;
}

export const isEmptyFilter = (filter: FilterForm | null | undefined): boolean => normalizeFilter(filter) === null;

/** A shared filter must have a value (000 §5); answers the normalised filter to share. */
export function assertShareable(filter: FilterForm | null | undefined, field = 'filter'): FilterForm {
  const normalized = normalizeFilter(filter);
  if (!normalized) throw badFilterInput(field, 'A shared filter needs at least one condition with a value.');
  return normalized;
}
