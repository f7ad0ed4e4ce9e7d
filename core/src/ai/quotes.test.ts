import { describe, expect, it } from 'vitest';
import { isVerbatimQuote, verifyQuotes } from './quotes.ts';

const SOURCE = 'She said: "The onboarding flow took far too long" — and she’d almost   given up.\nPricing was fine.';

describe('quote verification', () => {
  it('accepts a quote word for word, whatever its case, spacing, quote marks or apostrophes', () => {
    expect(isVerbatimQuote('the onboarding flow took far too long', SOURCE)).toBe(true);
    expect(isVerbatimQuote('“THE ONBOARDING FLOW   took far too long”', SOURCE)).toBe(true);
    expect(isVerbatimQuote("she'd almost given up", SOURCE)).toBe(true);
    expect(isVerbatimQuote('long" - and she', SOURCE)).toBe(true);
    expect(isVerbatimQuote('given up. Pricing was fine', SOURCE)).toBe(true);
  });

  it('refuses a changed, added or missing word, and quotes too short to mean anything', () => {
    expect(isVerbatimQuote('the onboarding flow took much too long', SOURCE)).toBe(false);
    expect(isVerbatimQuote('the onboarding flow took far too long today', SOURCE)).toBe(false);
    expect(isVerbatimQuote('the onboarding flow took too long', SOURCE)).toBe(false);
    expect(isVerbatimQuote('the onboarding flows took far too long', SOURCE)).toBe(false);
    expect(isVerbatimQuote('th', SOURCE)).toBe(false);
    expect(isVerbatimQuote('""', SOURCE)).toBe(false);
  });

  it('keeps quotes found in the source they cite and counts the others', () => {
    const sources = new Map([
      ['a', SOURCE],
      ['b', 'Another text.'],
    ]);
    const { kept, dropped } = verifyQuotes(
      [
        { sourceId: 'a', text: 'Pricing was fine' },
        { sourceId: 'b', text: 'Pricing was fine' },
        { sourceId: 'c', text: 'Another text' },
        { sourceId: 'b', text: 'another TEXT.' },
      ],
      sources,
    );
    expect(kept.map((k) => k.sourceId)).toEqual(['a', 'b']);
    expect(dropped).toBe(2);
  });
});
