import type { CustomFieldObjectType, CustomFieldRef, CustomFieldType } from './fields.ts';

/** Custom fields for tests: ids are fixed so expectations can name them. */
export const uuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export function customField(
  type: CustomFieldType,
  objectType: CustomFieldObjectType = 'NOTE',
  extra: Partial<CustomFieldRef> = {},
): CustomFieldRef {
  const prefix = objectType === 'PERSON' ? 'personField' : 'field';
  return { id: `${prefix}.${uuid(CUSTOM_TYPES.indexOf(type) + 900)}`, fieldType: type, objectType, ...extra };
}

const CUSTOM_TYPES: readonly CustomFieldType[] = [
  'ARR',
  'BOOLEAN',
  'CSAT',
  'DATETIME',
  'EMAIL',
  'NPS',
  'NUMBER',
  'PERSON',
  'PHONE',
  'RATING',
  'SELECT',
  'TEXT',
  'URL',
];

/** The error a call throws; fails the test when it throws none. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('Expected the call to throw.');
}
