import { describe, expect, it } from 'vitest';
import {
  assertOptionText,
  cleanOptionText,
  normalizeOptionIds,
  normalizeOptionTexts,
  splitImportedOptions,
} from './options.ts';
import { thrown, uuid } from './test-fields.ts';

describe('option text (000 §5)', () => {
  it('trims and holds text to 50 characters', () => {
    expect(cleanOptionText('  Enterprise  ')).toBe('Enterprise');
    expect(cleanOptionText('x'.repeat(60))).toBe('x'.repeat(50));
    expect(cleanOptionText('   ')).toBeNull();
  });

  it('counts characters, not UTF-16 units', () => {
    expect(cleanOptionText('😀'.repeat(51))).toBe('😀'.repeat(50));
  });

  it('refuses blank or over-long text where it must be valid as given', () => {
    expect(assertOptionText('  Trial ')).toBe('Trial');
    expect(assertOptionText('x'.repeat(50))).toHaveLength(50);
    expect(thrown(() => assertOptionText('  '))).toMatchObject({ field: 'label', message: 'Give the option a label.' });
    expect(thrown(() => assertOptionText('x'.repeat(51), 'options.3'))).toMatchObject({
      field: 'options.3',
      message: 'An option label can be at most 50 characters long.',
    });
  });

  it('de-duplicates option lists case-insensitively and drops blanks', () => {
    expect(normalizeOptionTexts([' Trial', 'trial', '', 'Paid ', 'PAID', 'Free'])).toEqual(['Trial', 'Paid', 'Free']);
  });

  it('splits imported options on semicolons and trims them', () => {
    expect(splitImportedOptions(' Small; Medium ;;Large; small ')).toEqual(['Small', 'Medium', 'Large']);
    expect(splitImportedOptions('One, with comma')).toEqual(['One, with comma']);
  });

  it('drops invalid uuids and repeats from id lists', () => {
    expect(normalizeOptionIds([uuid(1), 'nope', uuid(1).toUpperCase(), ` ${uuid(2)} `, ''])).toEqual([
      uuid(1),
      uuid(2),
    ]);
  });
});
