import { describe, expect, it } from 'vitest';
import { countQueryWords, parseQuery, validateQuery } from './query.ts';
import { thrown } from './test-fields.ts';

describe('quoted phrases, words and the prefix being typed (000 §5)', () => {
  it.each([
    ['pricing', { phrases: [], words: [], prefix: 'pricing' }],
    ['pricing ', { phrases: [], words: ['pricing'], prefix: null }],
    ['customer onb', { phrases: [], words: ['customer'], prefix: 'onb' }],
    ['"onboarding flow"', { phrases: ['onboarding flow'], words: [], prefix: null }],
    ['"onboarding   flow" pricing', { phrases: ['onboarding flow'], words: [], prefix: 'pricing' }],
    ['churn "too expensive" price ', { phrases: ['too expensive'], words: ['churn', 'price'], prefix: null }],
    ['"a b" c "d e"', { phrases: ['a b', 'd e'], words: ['c'], prefix: null }],
    ['“curly quotes” work', { phrases: ['curly quotes'], words: [], prefix: 'work' }],
    ['"unclosed phrase', { phrases: [], words: ['unclosed'], prefix: 'phrase' }],
    ['"" empty', { phrases: [], words: [], prefix: 'empty' }],
    ['  ', { phrases: [], words: [], prefix: null }],
  ])('%j', (query, expected) => {
    expect(parseQuery(query)).toEqual(expected);
  });
});

describe('query limits (000 §9) and trimming (002 §5)', () => {
  it('trims and unsets blank queries', () => {
    expect(validateQuery('  churn  ')).toBe('churn');
    expect(validateQuery('   ')).toBeUndefined();
    expect(validateQuery(null)).toBeUndefined();
  });

  it('allows exactly 2000 characters and 60 words', () => {
    expect(validateQuery('x'.repeat(2000))).toHaveLength(2000);
    const sixty = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    expect(validateQuery(sixty)).toBe(sixty);
  });

  it('refuses 2001 characters', () => {
    expect(thrown(() => validateQuery('x'.repeat(2001)))).toMatchObject({
      field: 'query',
      message: 'The search query can be at most 2000 characters long.',
    });
  });

  it('counts characters after trimming', () => {
    expect(validateQuery(`  ${'x'.repeat(2000)}  `)).toHaveLength(2000);
  });

  it('refuses 61 words, phrase words included', () => {
    const words = Array.from({ length: 59 }, (_, i) => `w${i}`).join(' ');
    expect(countQueryWords(`${words} "two more"`)).toBe(61);
    expect(thrown(() => validateQuery(`${words} "two more"`))).toMatchObject({
      field: 'query',
      message: 'The search query can be at most 60 words long.',
    });
  });

  it('refuses a query that is not text', () => {
    expect(thrown(() => validateQuery(5))).toMatchObject({ field: 'query', message: 'The search query must be text.' });
  });
});
