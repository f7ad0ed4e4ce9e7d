import { describe, expect, it } from 'vitest';
import { DEFAULT_STATE, formatChannelHash, parseChannelHash, rangeOf } from './hash.ts';

describe('the channel view hash', () => {
  it('keeps a date range, preset, chart type and filter through a round trip', () => {
    const state = {
      from: '2026-01-01',
      to: '2026-02-01',
      preset: 'custom' as const,
      chart: 'line' as const,
      filter: 'slow export',
    };
    expect(parseChannelHash(formatChannelHash(state))).toEqual(state);
  });

  it('drops both dates when one is missing, either is not a date, or from is after to', () => {
    for (const hash of [
      '#from=2026-01-01',
      '#to=2026-01-01',
      '#from=2026-02-01&to=2026-01-01',
      '#from=someday&to=2026-01-01',
      '#from=2026-13-45&to=2026-12-01',
    ]) {
      const state = parseChannelHash(`${hash}&preset=custom`);
      expect([state.from, state.to, state.preset], hash).toEqual([null, null, 'all']);
    }
    expect(parseChannelHash('#from=2026-01-01&to=2026-01-01')).toMatchObject({ from: '2026-01-01', to: '2026-01-01' });
  });

  it('reads an unknown chart type or preset as the default', () => {
    expect(parseChannelHash('#chart=pie&preset=forever')).toEqual(DEFAULT_STATE);
    expect(parseChannelHash('#chart=none').chart).toBe('none');
  });

  it('turns a preset into the dates it stands for', () => {
    expect(rangeOf({ ...DEFAULT_STATE, preset: '1w' }, new Date('2026-03-10T12:00:00Z'))).toEqual({
      from: '2026-03-03',
      to: '2026-03-10',
    });
    expect(rangeOf(DEFAULT_STATE)).toEqual({ from: null, to: null });
  });
});
