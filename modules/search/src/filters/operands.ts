/**
 * Operand types (000 §3): what a form's value is, by field and operator. A form keeps one value
 * per field and operand type, so switching back to a field finds what was typed before.
 */
export const MULTISELECT_OPERAND_TYPES = [
  'highlightMultiselect',
  'noteMultiselect',
  'insightMultiselect',
  'personMultiselect',
  'projectMultiselect',
  'folderMultiselect',
  'tagMultiselect',
  'tagGroupMultiselect',
  'tagBoardMultiselect',
  'userMultiselect',
  'optionMultiselect',
  'channelMultiselect',
] as const;
export type MultiselectOperandType = (typeof MULTISELECT_OPERAND_TYPES)[number];

export const OPERAND_TYPES = [
  'boolean',
  'int',
  'double',
  'text',
  'relativeDate',
  ...MULTISELECT_OPERAND_TYPES,
] as const;
export type OperandType = (typeof OPERAND_TYPES)[number];

/** Relative dates (000 §3), each meaning "this long ago". */
export const RELATIVE_DATES = ['1h', '1w', '2w', '4w', '1m', '3m', '6m', '1y', '2y'] as const;
export type RelativeDate = (typeof RELATIVE_DATES)[number];

/**
 * The date of a form that sets no bound, which a saved filter link starts with (000 §4). It is no
 * value: a date form holding it is blank and dropped when the filter is normalised (002 §5).
 */
export const ALL_TIME = 'allTime';
export type RelativeDateValue = RelativeDate | typeof ALL_TIME;

export interface RelativeDateSpan {
  amount: number;
  unit: 'hour' | 'week' | 'month' | 'year';
  label: string;
}

export const RELATIVE_DATE_SPANS: Readonly<Record<RelativeDate, RelativeDateSpan>> = {
  '1h': { amount: 1, unit: 'hour', label: '1 hour ago' },
  '1w': { amount: 1, unit: 'week', label: '1 week ago' },
  '2w': { amount: 2, unit: 'week', label: '2 weeks ago' },
  '4w': { amount: 4, unit: 'week', label: '4 weeks ago' },
  '1m': { amount: 1, unit: 'month', label: '1 month ago' },
  '3m': { amount: 3, unit: 'month', label: '3 months ago' },
  '6m': { amount: 6, unit: 'month', label: '6 months ago' },
  '1y': { amount: 1, unit: 'year', label: '1 year ago' },
  '2y': { amount: 2, unit: 'year', label: '2 years ago' },
};

/**
 * The two non-uuid values the user multiselect accepts (000 §3 names no spelling): `me` stands
 * for the person searching and `unassigned` for "no user at all" (say, a note an integration
 * imported), so "Contributors one of me, unassigned" reads as it sounds.
 */
export const USER_SPECIAL_VALUES = ['me', 'unassigned'] as const;
export type UserSpecialValue = (typeof USER_SPECIAL_VALUES)[number];
export const isUserSpecialValue = (value: string): value is UserSpecialValue =>
  (USER_SPECIAL_VALUES as readonly string[]).includes(value);

/** A form's values for one field, by operand type. */
export interface OperandValues {
  boolean?: boolean;
  int?: number;
  double?: number;
  text?: string;
  relativeDate?: RelativeDateValue;
  highlightMultiselect?: string[];
  noteMultiselect?: string[];
  insightMultiselect?: string[];
  personMultiselect?: string[];
  projectMultiselect?: string[];
  folderMultiselect?: string[];
  tagMultiselect?: string[];
  tagGroupMultiselect?: string[];
  tagBoardMultiselect?: string[];
  userMultiselect?: string[];
  optionMultiselect?: string[];
  channelMultiselect?: string[];
}

export type OperandValue = NonNullable<OperandValues[OperandType]>;

export const isMultiselect = (type: OperandType): type is MultiselectOperandType =>
  (MULTISELECT_OPERAND_TYPES as readonly string[]).includes(type);

/** Resolves a relative date against `now`: calendar months and years, fixed hours and weeks (UTC). */
export function resolveRelativeDate(value: RelativeDate, now: Date): Date {
  const { amount, unit } = RELATIVE_DATE_SPANS[value];
  const date = new Date(now.getTime());
  switch (unit) {
    case 'hour':
      return new Date(date.getTime() - amount * 3_600_000);
    case 'week':
      return new Date(date.getTime() - amount * 7 * 86_400_000);
    case 'month':
      return addUtcMonths(date, -amount);
    case 'year':
      return addUtcMonths(date, -12 * amount);
  }
}

/** Month arithmetic that clamps to the month's last day (31 March minus 1 month is 28/29 February). */
function addUtcMonths(date: Date, months: number): Date {
  const target = new Date(date.getTime());
  const day = target.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
}
