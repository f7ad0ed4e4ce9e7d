import { describe, expect, it } from 'vitest';
import { countText, resultsText } from './count.ts';

describe('counts on the search screen', () => {
  it('shows an estimated count as about so many, and a counted one as it is', () => {
    expect(countText(410_000, true, 'en-US')).toBe('about 410,000');
    expect(countText(1_234, false, 'en-US')).toBe('1,234');
    expect(resultsText(410_000, true, 'en-US')).toBe('about 410,000 results');
    expect(resultsText(1, false)).toBe('1 result');
    expect(resultsText(0, false)).toBe('0 results');
  });
});
