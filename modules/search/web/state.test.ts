import { describe, expect, it } from 'vitest';
import { decodeState, emptyState, encodeState, type SearchState } from './state.ts';

const PROJECT = '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed';

describe('search state in the URL hash', () => {
  it('round-trips text, tab, filter and scope, accents and all', () => {
    const state: SearchState = {
      query: 'Zoë "pricing plan"',
      tab: 'notes',
      filter: {
        combinator: 'or',
        forms: [
          { id: 'a', field: 'Title', operator: 'contains', values: { Title: { text: 'café' } } },
          { id: 'b', field: 'Created', operator: 'after', values: { Created: { relativeDate: '1w' } } },
        ],
      },
      projectIds: [PROJECT],
      projectCategoryIds: [],
    };
    const hash = encodeState(state);
    expect(hash).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeState(`#${hash}`)).toEqual({ state, problem: null });
  });

  it('keeps the default forms of a new filter', () => {
    const state = emptyState();
    expect(decodeState(encodeState(state))?.state).toEqual(state);
  });

  it('reads older tab names and ignores what it does not know', () => {
    const hash = btoa(JSON.stringify({ t: 'data', p: ['nope', PROJECT] })).replace(/=+$/, '');
    const decoded = decodeState(hash)!.state;
    expect(decoded.tab).toBe('notes');
    expect(decoded.projectIds).toEqual([PROJECT]);
    expect(decodeState(btoa(JSON.stringify({ t: 'elsewhere' })))!.state.tab).toBe('everything');
  });

  it('reports a filter it cannot read and keeps the rest of the link', () => {
    const hash = btoa(
      JSON.stringify({ q: 'kept', f: { c: 'and', f: [{ id: 'x', field: 'Created', operator: 'contains' }] } }),
    );
    const decoded = decodeState(hash)!;
    expect(decoded.state.query).toBe('kept');
    expect(decoded.problem).toMatch(/not an operator of Created/);
  });

  it('answers null for a hash that is no search link', () => {
    expect(decodeState('')).toBeNull();
    expect(decodeState('#section-2')).toBeNull();
    expect(decodeState('#' + btoa('[1,2]'))).toBeNull();
  });
});
