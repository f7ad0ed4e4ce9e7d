import { describe, expect, it } from 'vitest';
import { digestsEqual, outsideWindow, parseUnixSeconds } from './checks.ts';

describe('webhook checks', () => {
  it('treats digests of different lengths as unequal instead of throwing', () => {
    expect(digestsEqual(Buffer.from('abcd'), Buffer.from('abc'))).toBe(false);
    expect(digestsEqual(Buffer.from('abcd'), Buffer.from('abce'))).toBe(false);
    expect(digestsEqual(Buffer.from('abcd'), Buffer.from('abcd'))).toBe(true);
  });

  it('reads unix seconds only as plain digits', () => {
    expect(parseUnixSeconds('1700000000')).toBe(1_700_000_000);
    for (const value of ['1e9', '-1', '12.5', '0x10', ' 1', '']) expect(parseUnixSeconds(value), value).toBeUndefined();
  });

  it('measures the window from the given clock, in whole seconds', () => {
    const now = () => 1_700_000_000_999;
    expect(outsideWindow(1_700_000_000 - 300, { now })).toBeUndefined();
    expect(outsideWindow(1_700_000_000 - 301, { now })).toMatch(/301s old/);
    expect(outsideWindow(1_700_000_000 + 301, { now })).toMatch(/301s in the future/);
  });
});
