import { describe, expect, it } from 'vitest';
import { findQuotations, QuoteCheckedStream, UNVERIFIED_QUOTE, verifyProse } from './prose-quotes.ts';
import { isVerbatimQuote, verifyQuotes } from './quotes.ts';

const SOURCE = 'She said: "The onboarding flow took far too long" — and she’d almost   given up.\nPricing was fine.';

describe('quote verification', () => {
  it('accepts a quote word for word, whatever its case, spacing, quote marks or apostrophes', () => {
    expect(isVerbatimQuote('the onboarding flow took far too long', SOURCE)).toBe(true);
    expect(isVerbatimQuote('“THE ONBOARDING FLOW   took far too long”', SOURCE)).toBe(true);
    expect(isVerbatimQuote("she'd almost given up", SOURCE)).toBe(true);
    expect(isVerbatimQuote('long" - and she’d', SOURCE)).toBe(true);
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

describe('word boundaries', () => {
  it('refuses a quote that begins or ends inside a word', () => {
    const text =
      'I really disliked the export flow. We asked 15 researchers; she didn’t renew. Revenue was 3.5 million.';
    expect(isVerbatimQuote('liked the export flow', text)).toBe(false);
    expect(isVerbatimQuote('disliked the export flow', text)).toBe(true);
    expect(isVerbatimQuote('5 researchers', text)).toBe(false);
    expect(isVerbatimQuote('15 researchers', text)).toBe(true);
    expect(isVerbatimQuote('the export fl', text)).toBe(false);
    expect(isVerbatimQuote('t renew', text)).toBe(false);
    expect(isVerbatimQuote('5 million', text)).toBe(false);
    expect(isVerbatimQuote('Revenue was 3.5 million.', text)).toBe(true);
  });

  it('finds a quote again further on when its first occurrence is inside a word', () => {
    expect(isVerbatimQuote('liked it', 'She disliked it, then liked it.')).toBe(true);
  });

  it('holds in other alphabets and in scripts written without spaces', () => {
    expect(isVerbatimQuote('Preis zu hoch', 'Der Einstiegspreis zu hoch, sagte sie.')).toBe(false);
    expect(isVerbatimQuote('Einstiegspreis zu hoch', 'Der Einstiegspreis zu hoch, sagte sie.')).toBe(true);
    expect(isVerbatimQuote('слишком дорого', 'Это неслишком дорого.')).toBe(false);
    expect(isVerbatimQuote('喜欢导出流程', '我真的不喜欢导出流程，价格太高了。')).toBe(true);
    expect(isVerbatimQuote('欢导出流程', '我真的不喜欢导出流程，价格太高了。')).toBe(false);
    expect(isVerbatimQuote('价格太', '我真的不喜欢导出流程，价格太高了。')).toBe(false);
    expect(isVerbatimQuote('ไม่ชอบการส่งออก', 'ฉันไม่ชอบการส่งออกข้อมูล')).toBe(true);
    expect(isVerbatimQuote('อบการส่งออก', 'ฉันไม่ชอบการส่งออกข้อมูล')).toBe(false);
  });
});

describe('quotations in prose', () => {
  it('finds spans in every quotation mark the product reads, and single quotes only where unambiguous', () => {
    const prose = [
      'She said “the flow was slow”, and „die Preise sind zu hoch“ and «trop cher» and 「高すぎる」 and "plain words".',
      "The customers’ team said ‘never again’ and it's fine; 'export' broke. Rock 'n' roll.",
    ].join('\n');
    expect(findQuotations(prose).map((q) => q.quote)).toEqual([
      'the flow was slow',
      'die Preise sind zu hoch',
      'trop cher',
      '高すぎる',
      'plain words',
      'never again',
      'export',
    ]);
  });

  it('keeps quotations found in a source, removes the others with a marker, and counts them', () => {
    const sources = [{ id: 'n1', text: SOURCE, title: 'Call with Ana' }];
    const out = verifyProse(
      'Ana said “the onboarding flow took far too long” but also “we will renew for five years”. See “Call with Ana”.',
      sources,
    );
    expect(out.text).toBe(
      `Ana said “the onboarding flow took far too long” but also ${UNVERIFIED_QUOTE}. See “Call with Ana”.`,
    );
    expect(out.dropped).toBe(1);
    expect(out.found).toEqual([{ sourceId: 'n1', text: 'the onboarding flow took far too long' }]);
  });
});

describe('quotations in streamed prose', () => {
  it('holds each quotation back until it is closed and checked, so invented words never appear, even for a moment', () => {
    const prose =
      "Ana said “the onboarding flow took far too long” and “we will renew for five years”; it's \"Pricing was fine\", not 'free'.";
    const sources = [{ id: 'n1', text: SOURCE }];
    for (const size of [1, 3, 7, 50]) {
      let shown = '';
      let dropped = 0;
      const stream = new QuoteCheckedStream(sources, (text) => {
        shown += text;
        expect(shown).not.toContain('renew');
      });
      for (let i = 0; i < prose.length; i += size) stream.push(prose.slice(i, i + size));
      dropped = stream.end();
      expect(shown).toBe(verifyProse(prose, sources).text);
      expect(dropped).toBe(2);
    }
  });
});
