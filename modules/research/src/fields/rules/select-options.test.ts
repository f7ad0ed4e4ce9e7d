import { describe, expect, it } from 'vitest';
import { validate } from '@fieldbook/core';
import { colorFromLabel } from '../../colors/colors.ts';
import {
  assertSelectable,
  maxSelectable,
  normalizeOptionIds,
  optionLabelSchema,
  parseSelectValue,
  splitImportedOptions,
  type OptionLike,
} from './select-options.ts';

const existing: OptionLike[] = [
  { id: 'a', label: 'Pricing' },
  { id: 'b', label: 'Onboarding' },
];

describe('optionLabelSchema', () => {
  it.each([
    ['  Pricing ', 'Pricing'],
    ['x'.repeat(50), 'x'.repeat(50)],
  ])('keeps %j as %j', (input, expected) => {
    expect(validate(optionLabelSchema, input)).toBe(expected);
  });

  it.each([
    ['', 'Give the option a label.'],
    ['   ', 'Give the option a label.'],
    ['x'.repeat(51), 'An option label can be at most 50 characters long.'],
  ])('refuses %j', (input, message) => {
    expect(() => validate(optionLabelSchema, input)).toThrow(message);
  });
});

describe('parseSelectValue', () => {
  it.each<[string, string[], string[]]>([
    ['pricing', ['Pricing'], []],
    ['PRICING, onboarding', ['Pricing', 'Onboarding'], []],
    [' Pricing ,, , Billing ', ['Pricing', 'Billing'], ['Billing']],
    ['Billing, billing, BILLING', ['Billing'], ['Billing']],
    ['', [], []],
    [`${'y'.repeat(60)}`, ['y'.repeat(50)], ['y'.repeat(50)]],
  ])('reads %j', (text, labels, created) => {
    const parsed = parseSelectValue(text, existing);
    expect(parsed.labels).toEqual(labels);
    expect(parsed.newOptions).toEqual(created.map((label) => ({ label, color: colorFromLabel(label) })));
  });

  it('matches an item cut to 50 characters against an existing option', () => {
    const long = 'z'.repeat(50);
    expect(parseSelectValue(`${long.toUpperCase()}zzzz`, [{ id: 'l', label: long }])).toEqual({
      labels: [long],
      newOptions: [],
    });
  });

  it('keeps at most 750 options: new items past them are dropped and the rest applies', () => {
    const many = Array.from({ length: 749 }, (_, i) => ({ id: String(i), label: `Option ${i}` }));
    expect(parseSelectValue('One more', many).newOptions).toHaveLength(1);
    expect(parseSelectValue('option 3, One more, And another, Option 7', many)).toEqual({
      labels: ['Option 3', 'One more', 'Option 7'],
      newOptions: [{ label: 'One more', color: expect.any(String) }],
    });
    const full = [...many, { id: '749', label: 'Option 749' }];
    expect(parseSelectValue('Brand new, Option 1', full)).toEqual({ labels: ['Option 1'], newOptions: [] });
  });
});

describe('maxSelectable', () => {
  it.each<[number | null, number, number]>([
    [null, 0, 100],
    [null, 1, 1],
    [null, 2, 100],
    [null, 750, 100],
    [3, 1, 3],
    [1, 10, 1],
  ])('configured %j with %i options allows %i', (configured, count, expected) => {
    expect(maxSelectable(configured, count)).toBe(expected);
  });

  it('refuses more selections than allowed', () => {
    expect(() => assertSelectable(2, 1)).toThrow('This field accepts at most 1 option.');
    expect(() => assertSelectable(4, 3)).toThrow('This field accepts at most 3 options.');
    expect(() => assertSelectable(3, 3)).not.toThrow();
  });
});

describe('normalizeOptionIds', () => {
  it('drops invalid uuids and repeats, keeping order', () => {
    const a = '0b7c6a52-7d1e-4c55-9a57-3a3c7a8f0001';
    const b = '0b7c6a52-7d1e-4c55-9a57-3a3c7a8f0002';
    expect(normalizeOptionIds([b, 'not-a-uuid', a, b.toUpperCase(), '', ` ${a} `])).toEqual([b, a]);
  });
});

describe('splitImportedOptions', () => {
  it.each<[string, string[]]>([
    ['Red; Green ;Blue', ['Red', 'Green', 'Blue']],
    ['a;;  ; b', ['a', 'b']],
    ['Same; same; SAME', ['Same']],
    ['one, two; three', ['one, two', 'three']],
    ['', []],
  ])('splits %j', (text, expected) => {
    expect(splitImportedOptions(text)).toEqual(expected);
  });
});
