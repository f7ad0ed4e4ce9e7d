import { fieldKey } from './fields.ts';
import type { FieldForm, FilterForm } from './form.ts';
import { ALL_TIME } from './operands.ts';

/** The forms a new filter starts with (000 §4): folder, contributors and created, all blank. */
const DEFAULT_FORMS: readonly FieldForm[] = [
  { id: 'default.folder', field: 'ProjectCategory', operator: 'oneOf', values: {} },
  { id: 'default.contributors', field: 'Contributors', operator: 'oneOf', values: {} },
  // A saved filter link starts at all time (000 §4).
  { id: 'default.created', field: 'Created', operator: 'after', values: { Created: { relativeDate: ALL_TIME } } },
];

export interface DefaultsOption {
  /** Add the three default forms when absent; true unless told otherwise (000 §4). */
  defaults?: boolean;
}

const copyForm = (form: FieldForm): FieldForm => ({ ...form, values: structuredClone(form.values) });

/** The default filter form: combinator and, no forms, plus the default forms unless told otherwise. */
export function defaultFilterForm(options: DefaultsOption = {}): FilterForm {
  return withDefaultForms({ combinator: 'and', forms: [] }, options);
}

/** Adds each default form whose field the filter does not test yet, in front, in the default order. */
export function withDefaultForms(filter: FilterForm, { defaults = true }: DefaultsOption = {}): FilterForm {
  if (!defaults) return filter;
  const present = new Set(filter.forms.map((form) => fieldKey(form.field)));
  const missing = DEFAULT_FORMS.filter((form) => !present.has(fieldKey(form.field))).map(copyForm);
  return { combinator: filter.combinator, forms: [...missing, ...filter.forms] };
}

const comparable = (filter: FilterForm) =>
  JSON.stringify({
    combinator: filter.combinator,
    forms: filter.forms.map((f) => ({
      hidden: f.hidden ?? false,
      field: f.field,
      operator: f.operator,
      values: f.values,
    })),
  });

/** Whether a filter is the default one, with or without the default forms; form ids do not matter. */
export function isDefaultFilter(filter: FilterForm): boolean {
  const given = comparable(filter);
  return given === comparable(defaultFilterForm()) || given === comparable(defaultFilterForm({ defaults: false }));
}
