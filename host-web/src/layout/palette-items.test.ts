import { describe, expect, it } from 'vitest';
import { hitPath } from '@fieldbook/search/web/hit-path';
import { hitItem, matchActions } from './palette-items.ts';

describe('command palette items', () => {
  it('opens each kind of search hit at its page, a highlight in its note', () => {
    expect(hitPath({ type: 'NOTE', id: 'n', parentId: null })).toBe('/data/n');
    expect(hitPath({ type: 'HIGHLIGHT', id: 'h', parentId: 'n' })).toBe('/data/n');
    expect(hitPath({ type: 'THEME', id: 't', parentId: null })).toBeNull();
    expect(hitItem({ type: 'INSIGHT', id: 'i', title: '', parentId: null, projectTitle: 'Study' })).toEqual({
      id: 'INSIGHT:i',
      label: 'Untitled insight',
      hint: 'Insight · Study',
      to: '/insights/i',
    });
  });

  it('keeps the actions whose words all match, in any case', () => {
    const actions = [
      { id: 'a', label: 'New project', hint: 'Action', to: '/projects/new' },
      { id: 'b', label: 'Import a project', hint: 'Action', to: '/projects/import' },
      { id: 'c', label: 'Trash', hint: 'Go to', to: '/settings/trash' },
    ];
    expect(matchActions(actions, 'PROJ').map((a) => a.id)).toEqual(['a', 'b']);
    expect(matchActions(actions, 'import proj').map((a) => a.id)).toEqual(['b']);
    expect(matchActions(actions, '')).toHaveLength(3);
  });
});
