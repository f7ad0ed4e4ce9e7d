import { describe, expect, it } from 'vitest';
import { moveItem } from './reorder.ts';

const list = ['a', 'b', 'c', 'd'].map((id) => ({ id }));

describe('moveItem', () => {
  it('moves down and names the new neighbours', () => {
    const m = moveItem(list, 0, 2)!;
    expect(m.list.map((i) => i.id)).toEqual(['b', 'c', 'a', 'd']);
    expect(m).toMatchObject({ id: 'a', previousId: 'c', nextId: 'd' });
  });

  it('moves to the top with no previous neighbour', () => {
    expect(moveItem(list, 3, 0)).toMatchObject({ id: 'd', previousId: null, nextId: 'a' });
  });

  it('moves to the end with no next neighbour', () => {
    expect(moveItem(list, 1, 3)).toMatchObject({ id: 'b', previousId: 'd', nextId: null });
  });

  it('ignores moves that change nothing or leave the list', () => {
    expect(moveItem(list, 1, 1)).toBeNull();
    expect(moveItem(list, 0, 4)).toBeNull();
    expect(moveItem(list, -1, 0)).toBeNull();
  });
});
