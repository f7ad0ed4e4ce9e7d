import { describe, expect, it } from 'vitest';
import { clusterTexts } from './cluster.ts';
import { clusterCount, outlierDeviations } from './params.ts';

describe('the clustering rules of 002 §9', () => {
  it('chooses the number of themes from the amount: none below 5 points, 2 below 20, then a percent of at least 3 and at most 50', () => {
    expect(clusterCount(4, 10)).toBe(0);
    expect(clusterCount(5, 10)).toBe(2);
    expect(clusterCount(19, 25)).toBe(2);
    expect(clusterCount(20, 3)).toBe(3);
    expect(clusterCount(400, 10)).toBe(40);
    expect(clusterCount(400, 25)).toBe(50);
    expect(clusterCount(100_000, 3)).toBe(50);
    // No amount: the fallback of 15, as long as each theme can hold 5 points.
    expect(clusterCount(1000, null)).toBe(15);
    expect(clusterCount(40, null)).toBe(8);
  });

  it('cuts more outliers the stricter the sensitivity', () => {
    expect(outlierDeviations(1)).toBeLessThan(outlierDeviations(3));
    expect(outlierDeviations(3)).toBeLessThan(outlierDeviations(5));
    const texts = [
      'refund my order please',
      'I want a refund for my order',
      'order refund request',
      'refund the order now',
      'need a refund on order',
      'where is my refund for the order',
      'order arrived broken, refund',
    ].flatMap((t) => [t, `${t} today`]);
    texts.push('the weather is nice', 'my cat likes boxes');
    const strict = clusterTexts({ texts, sensitivity: 1, amountPercent: 10 });
    const relaxed = clusterTexts({ texts, sensitivity: 5, amountPercent: 10 });
    expect(strict.outliers.length).toBeGreaterThan(relaxed.outliers.length);
    // Text sharing no word with any other point is an outlier whatever the sensitivity.
    expect(relaxed.outliers).toEqual(expect.arrayContaining([texts.length - 2, texts.length - 1]));
  });
});
