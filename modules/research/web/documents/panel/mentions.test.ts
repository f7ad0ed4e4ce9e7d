import { describe, expect, it } from 'vitest';
import { bodyParts, fromBody, mentionQuery, toBody } from './mentions.ts';

const ADA = { id: '11111111-1111-4111-8111-111111111111', name: 'Ada Lovelace' };
const ADAM = { id: '22222222-2222-4222-8222-222222222222', name: 'Ada' };

describe('comment mentions', () => {
  it('turns picked @Names into markup and back', () => {
    const body = toBody('Thanks @Ada Lovelace and @Ada!', [ADAM, ADA]);
    expect(body).toBe(`Thanks @[Ada Lovelace](${ADA.id}) and @[Ada](${ADAM.id})!`);
    expect(fromBody(body)).toEqual({ text: 'Thanks @Ada Lovelace and @Ada!', mentions: [ADA, ADAM] });
    expect(bodyParts(body).map((p) => p.mention?.id ?? p.text)).toEqual(['Thanks ', ADA.id, ' and ', ADAM.id, '!']);
  });

  it('leaves a mention out once its name is deleted from the text', () => {
    expect(toBody('No one here', [ADA])).toBe('No one here');
  });

  it('finds the name being typed after an @', () => {
    expect(mentionQuery('Hi @Ad', 6)).toEqual({ query: 'Ad', start: 3 });
    expect(mentionQuery('mail me@x', 9)).toBeNull();
    expect(mentionQuery('@', 1)).toEqual({ query: '', start: 0 });
  });
});
