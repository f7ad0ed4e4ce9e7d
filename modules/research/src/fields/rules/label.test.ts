import { describe, expect, it } from 'vitest';
import { validate } from '@fieldbook/core';
import { fieldLabelSchema } from './label.ts';
import { numberConfigSchema } from './number-config.ts';

describe('fieldLabelSchema', () => {
  it.each([
    ['  Company size ', 'Company size'],
    ['x'.repeat(250), 'x'.repeat(250)],
  ])('keeps %j', (input, expected) => {
    expect(validate(fieldLabelSchema, input)).toBe(expected);
  });

  it.each([
    ['', 'Give the field a label.'],
    ['  ', 'Give the field a label.'],
    ['x'.repeat(251), 'A field label can be at most 250 characters long.'],
  ])('refuses %j', (input, message) => {
    expect(() => validate(fieldLabelSchema, input)).toThrow(message);
  });
});

describe('numberConfigSchema', () => {
  it.each([
    [{}, { format: 'number' }],
    [{ format: 'percent' }, { format: 'percent' }],
    [{ format: 'number_with_commas' }, { format: 'number_with_commas' }],
    [
      { format: 'currency', currencySymbol: ' € ' },
      { format: 'currency', currencySymbol: '€' },
    ],
  ])('reads %j', (input, expected) => {
    expect(validate(numberConfigSchema, input)).toEqual(expected);
  });

  it.each([
    [{ format: 'money' }, 'A number format is one of number, number_with_commas, percent, currency.'],
    [{ format: 'currency', currencySymbol: '' }, 'A currency symbol cannot be blank.'],
    [{ format: 'currency', currencySymbol: 'DOLLARS!!' }, 'A currency symbol can be at most 8 characters long.'],
  ])('refuses %j', (input, message) => {
    expect(() => validate(numberConfigSchema, input)).toThrow(message);
  });
});
