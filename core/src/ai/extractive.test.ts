import { describe, expect, it } from 'vitest';
import { wordCount } from './extractive.ts';

describe('word count', () => {
  it('counts the words of scripts written without spaces, not their clauses', () => {
    expect(wordCount('The export flow took 15 minutes.')).toBe(6);
    // 我/真的/不/喜欢/导出/流程 and 价格/太高/了: two clauses, nine words.
    expect(wordCount('我真的不喜欢导出流程，价格太高了。')).toBeGreaterThanOrEqual(8);
    expect(wordCount('ฉันไม่ชอบการส่งออกข้อมูล')).toBeGreaterThanOrEqual(5);
  });
});
