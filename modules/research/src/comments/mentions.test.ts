import { describe, expect, it } from 'vitest';
import { unstorableText } from '@fieldbook/core';
import { excerpt, mentionedUserIds, mentionsIn, plainBody } from './mentions.ts';

const ANA = '6f1c2b9e-8d4a-4c3e-9b1a-2f3e4d5c6b7a';
const BEN = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

describe('comment mentions', () => {
  it('finds each mentioned id once, in order, whatever its case', () => {
    const body = `Thanks @[Ana Lee](${ANA.toUpperCase()}) and @[Ben](${BEN}); @[Ana](${ANA}) again`;
    expect(mentionedUserIds(body)).toEqual([ANA, BEN]);
    expect(mentionsIn(body)).toEqual([
      { userId: ANA, name: 'Ana Lee' },
      { userId: BEN, name: 'Ben' },
    ]);
  });

  it('ignores markup that is not a mention', () => {
    expect(mentionedUserIds('@Ana, [link](https://example.com), @[Ana](not-an-id), @[](' + ANA + ')')).toEqual([]);
  });

  it('shows mentions as @Name in plain text and excerpts', () => {
    expect(plainBody(`Hi @[Ana Lee](${ANA}), see this`)).toBe('Hi @Ana Lee, see this');
    expect(excerpt(`Hi @[Ana](${ANA})\n\n  there`)).toBe('Hi @Ana there');
    const long = excerpt('x'.repeat(500), 10);
    expect(long).toBe(`${'x'.repeat(9)}…`);
  });

  it('cuts an excerpt before an emoji that straddles the cut, so no half of it is left', () => {
    const body = `${'a'.repeat(198)}😀 after`;
    const cut = excerpt(body);
    expect(cut).toBe(`${'a'.repeat(198)}…`);
    expect(unstorableText(cut)).toBeNull();
  });
});
