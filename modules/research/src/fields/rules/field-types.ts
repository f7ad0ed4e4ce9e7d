import {
  CUSTOM_FIELD_OBJECT_TYPES,
  CUSTOM_FIELD_TYPES,
  type CustomFieldObjectType,
  type CustomFieldType,
} from '@fieldbook/search/filters';

/** Custom field types (000 §3), as the filter model names them. */
export const FIELD_TYPES = CUSTOM_FIELD_TYPES;
export type FieldType = CustomFieldType;

/**
 * The field sets a field belongs to (000 §3): note, insight and person fields, and workspace
 * fields, which notes and insights of every project share.
 */
export const FIELD_OBJECT_TYPES = CUSTOM_FIELD_OBJECT_TYPES;
export type FieldObjectType = CustomFieldObjectType;

/** Objects that carry field values. */
export const VALUE_OBJECT_TYPES = ['NOTE', 'INSIGHT', 'PERSON'] as const;
export type ValueObjectType = (typeof VALUE_OBJECT_TYPES)[number];

/** Which field sets apply to an object of each kind. */
export const FIELD_SETS_FOR: Readonly<Record<ValueObjectType, readonly FieldObjectType[]>> = {
  NOTE: ['NOTE', 'WORKSPACE'],
  INSIGHT: ['INSIGHT', 'WORKSPACE'],
  PERSON: ['PERSON'],
};

/** Limits of 000 §5 and §9, plus the score ranges this product chose (see values.ts). */
export const FIELD_LIMITS = {
  label: 250,
  textValue: 10299,
  optionLabel: 50,
  options: 750,
  defaultMaxSelectable: 100,
  currencySymbol: 8,
  email: 320,
} as const;
