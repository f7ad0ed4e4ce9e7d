import { describe, expect, it } from 'vitest';
import { count, runEach } from './run-each.ts';

describe('runEach', () => {
  it('runs every item, keeps going past a failure and reports progress after each', async () => {
    const progress: string[] = [];
    const seen: string[] = [];
    const result = await runEach(
      ['a', 'b', 'c'],
      async (id) => {
        seen.push(id);
        if (id === 'b') throw new Error('refused');
      },
      (finished, total) => progress.push(`${finished}/${total}`),
    );
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(result.done).toEqual(['a', 'c']);
    expect(result.failed.map((f) => [f.id, (f.error as Error).message])).toEqual([['b', 'refused']]);
    expect(progress).toEqual(['1/3', '2/3', '3/3']);
  });

  it('counts in words', () => {
    expect(count(1, 'note', 'notes')).toBe('1 note');
    expect(count(1200, 'note', 'notes')).toBe('1,200 notes');
  });
});
