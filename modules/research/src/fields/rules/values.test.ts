import { describe, expect, it } from 'vitest';
import { AppError } from '@fieldbook/core';
import { isBlankValue, validateFieldValue, type RawFieldValue } from './values.ts';
import type { FieldType } from './field-types.ts';

type Checked = Exclude<FieldType, 'SELECT'>;

function rejection(type: Checked, value: RawFieldValue): AppError {
  try {
    validateFieldValue(type, value);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error(`${type} accepted ${JSON.stringify(value)}`);
}

describe('validateFieldValue accepts and normalises', () => {
  it.each<[Checked, RawFieldValue, unknown]>([
    ['TEXT', '  hello  ', 'hello'],
    ['TEXT', 'x'.repeat(10299), 'x'.repeat(10299)],
    ['EMAIL', ' ada@example.com ', 'ada@example.com'],
    ['URL', 'https://example.com/a?b=c', 'https://example.com/a?b=c'],
    ['URL', 'http://localhost:3000', 'http://localhost:3000'],
    ['PHONE', '+1 (555) 010-9999', '+1 (555) 010-9999'],
    ['PHONE', '020 7946 0018', '020 7946 0018'],
    ['NUMBER', 42, 42],
    ['NUMBER', '-3.5', -3.5],
    ['NUMBER', '1e3', 1000],
    ['ARR', '120000', 120000],
    ['NPS', 0, 0],
    ['NPS', '10', 10],
    ['RATING', 1, 1],
    ['RATING', '5', 5],
    ['CSAT', 3, 3],
    ['DATETIME', '2024-02-29', '2024-02-29'],
    ['DATETIME', '2024-05-31T14:30:00Z', '2024-05-31T14:30:00.000Z'],
    ['DATETIME', '2024-05-31T14:30:00+02:00', '2024-05-31T12:30:00.000Z'],
    ['BOOLEAN', true, true],
    ['BOOLEAN', false, false],
    ['BOOLEAN', 'TRUE', true],
    ['BOOLEAN', 'false', false],
    [
      'PERSON',
      '6f1c1a9e-1111-4a4a-8b8b-000000000001, nope, 6F1C1A9E-1111-4A4A-8B8B-000000000001',
      ['6f1c1a9e-1111-4a4a-8b8b-000000000001'],
    ],
  ])('%s %j', (type, value, expected) => {
    expect(validateFieldValue(type, value)).toEqual(expected);
  });
});

describe('validateFieldValue refuses', () => {
  it.each<[Checked, RawFieldValue, string]>([
    ['TEXT', 'x'.repeat(10300), 'A text field value can be at most 10299 characters long.'],
    ['TEXT', 5, 'A text field value must be text.'],
    ['EMAIL', 'ada@', 'Enter a valid email address.'],
    ['EMAIL', 'ada example.com', 'Enter a valid email address.'],
    ['URL', 'example.com', 'Enter a valid URL starting with http:// or https://.'],
    ['URL', 'javascript:alert(1)', 'Enter a valid URL starting with http:// or https://.'],
    ['PHONE', 'call me', 'Enter a valid phone number.'],
    ['PHONE', '12', 'Enter a valid phone number.'],
    ['PHONE', '1'.repeat(21), 'Enter a valid phone number.'],
    ['NUMBER', 'twelve', 'A number field takes a finite number.'],
    ['NUMBER', Number.POSITIVE_INFINITY, 'A number field takes a finite number.'],
    ['NUMBER', Number.NaN, 'A number field takes a finite number.'],
    ['ARR', '1e999', 'A number field takes a finite number.'],
    ['NPS', 11, 'An NPS score is a whole number from 0 to 10.'],
    ['NPS', -1, 'An NPS score is a whole number from 0 to 10.'],
    ['NPS', 7.5, 'An NPS score is a whole number from 0 to 10.'],
    ['RATING', 0, 'A rating is a whole number from 1 to 5.'],
    ['RATING', 6, 'A rating is a whole number from 1 to 5.'],
    ['CSAT', '9', 'A CSAT score is a whole number from 1 to 5.'],
    ['DATETIME', '2023-02-29', 'A date must be ISO 8601, e.g. 2024-05-31 or 2024-05-31T14:30:00Z.'],
    ['DATETIME', '31/05/2024', 'A date must be ISO 8601, e.g. 2024-05-31 or 2024-05-31T14:30:00Z.'],
    ['DATETIME', '2024-05-31T25:00:00Z', 'A date must be ISO 8601, e.g. 2024-05-31 or 2024-05-31T14:30:00Z.'],
    ['BOOLEAN', 'yes', 'A yes/no field takes true or false.'],
    ['BOOLEAN', 1, 'A yes/no field takes true or false.'],
    ['PERSON', 7, 'A person field takes a list of people ids.'],
  ])('%s %j', (type, value, message) => {
    const error = rejection(type, value);
    expect(error.errorCode).toBe('BAD_USER_INPUT');
    expect(error.field).toBe('value');
    expect(error.message).toBe(message);
  });
});

describe('isBlankValue', () => {
  it.each<[RawFieldValue, boolean]>([
    [null, true],
    [undefined, true],
    ['   ', true],
    [[], true],
    [false, false],
    [0, false],
    ['a', false],
  ])('%j is blank: %s', (value, blank) => {
    expect(isBlankValue(value)).toBe(blank);
  });
});
