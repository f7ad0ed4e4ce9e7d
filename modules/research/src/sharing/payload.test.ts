import { describe, expect, it } from 'vitest';
import { AppError } from '@fieldbook/core';
import { parseSharePayload, SHARE_PAYLOAD_MAX, showsSection } from './payload.ts';

const sized = (length: number) => ({ note: 'x'.repeat(length - '{"note":""}'.length) });

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an error');
}

describe('share payload', () => {
  it('accepts exactly 17000 serialised characters and refuses one more, naming the field and the limit', () => {
    expect(JSON.stringify(sized(SHARE_PAYLOAD_MAX)).length).toBe(17_000);
    expect(parseSharePayload(sized(SHARE_PAYLOAD_MAX))).toEqual(sized(SHARE_PAYLOAD_MAX));
    const error = errorOf(() => parseSharePayload(sized(SHARE_PAYLOAD_MAX + 1)));
    expect(error.errorCode).toBe('BAD_USER_INPUT');
    expect(error.field).toBe('payload');
    expect(error.message).toBe(
      'The share payload can be at most 17000 characters once serialised; this one has 17001.',
    );
  });

  it('is an object of options; none means an empty one', () => {
    expect(parseSharePayload(null)).toEqual({});
    expect(parseSharePayload(undefined)).toEqual({});
    for (const bad of [[1, 2], 'text', 5]) {
      const error = errorOf(() => parseSharePayload(bad));
      expect(error.field).toBe('payload');
      expect(error.message).toContain('payload must be an object of share options');
    }
  });

  it('lists only known sections, and shows everything unless it lists some', () => {
    expect(errorOf(() => parseSharePayload({ sections: ['README', 'GOSSIP'] })).message).toContain(
      'payload.sections lists sections out of',
    );
    expect(errorOf(() => parseSharePayload({ sections: 'README' })).field).toBe('payload.sections');
    const some = parseSharePayload({ sections: ['README'], theme: 'dark' });
    expect(showsSection(some, 'README')).toBe(true);
    expect(showsSection(some, 'INSIGHTS')).toBe(false);
    expect(showsSection(parseSharePayload({}), 'INSIGHTS')).toBe(true);
  });
});
