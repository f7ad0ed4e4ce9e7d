import { describe, expect, it } from 'vitest';
import { importedTitle, titleFromFileName } from './titles.ts';

describe('import titles', () => {
  it('adds “(imported)” and keeps the whole within 200 characters', () => {
    expect(importedTitle('Pricing study')).toBe('Pricing study (imported)');
    expect(importedTitle('  ')).toBe('Project (imported)');
    const long = importedTitle('a'.repeat(300));
    expect(long).toHaveLength(200);
    expect(long.endsWith(' (imported)')).toBe(true);
  });

  it('reads a title back from an export file name', () => {
    expect(titleFromFileName('Pricing-study.tar')).toBe('Pricing study');
    expect(titleFromFileName('notes_2024.TAR')).toBe('notes 2024');
  });
});
