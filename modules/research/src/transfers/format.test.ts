import { describe, expect, it } from 'vitest';
import { fieldSetId, sectionFlags, sectionsFromFlags } from './format.ts';
import { remapMentions } from './remap.ts';

describe('project section flags', () => {
  it('writes enabled flags and ranks, and reads the same sections back in order', () => {
    const flags = sectionFlags(['NOTES', 'TAGS', 'INSIGHTS']);
    expect(flags).toMatchObject({
      notesEnabled: true,
      notesRank: 0,
      tagsEnabled: true,
      tagsRank: 1,
      insightsEnabled: true,
      insightsRank: 2,
      chartsEnabled: false,
      readmeEnabled: false,
    });
    expect(sectionsFromFlags(flags)).toEqual(['NOTES', 'TAGS', 'INSIGHTS']);
  });

  it('reads no sections from an empty list and ignores unknown ones', () => {
    expect(sectionsFromFlags(sectionFlags(null))).toEqual([]);
    expect(sectionsFromFlags(sectionFlags(['README', 'BOGUS']))).toEqual(['README']);
  });
});

describe('field set ids', () => {
  it('tells a project set from the workspace set of the same object type', () => {
    expect(fieldSetId('NOTE', 'p1')).toBe('p1:NOTE');
    expect(fieldSetId('NOTE', null)).toBe('workspace:NOTE');
  });
});

describe('remapping on import', () => {
  const old = '11111111-1111-4111-8111-111111111111';
  const gone = '22222222-2222-4222-8222-222222222222';
  const now = '33333333-3333-4333-8333-333333333333';

  it('points mentions at members here and turns the others into plain names', () => {
    const { body, mentioned } = remapMentions(
      `Hi @[Ann](${old}) and @[Bo](${gone}), again @[Ann](${old.toUpperCase()})`,
      new Map([
        [old, now],
        [gone, null],
      ]),
    );
    expect(body).toBe(`Hi @[Ann](${now}) and @Bo, again @[Ann](${now})`);
    expect(mentioned).toEqual([now]);
  });
});
