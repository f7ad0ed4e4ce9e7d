import { Extension } from '@tiptap/core';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { offsetsToRanges, textMap } from './text-map.ts';

/**
 * The passage a link points at (a citation's words, a cited highlight): a span of the document's
 * plain text, or in an insight the citation block of a highlight it cites.
 */
export type CitedPassage = { start: number; end: number } | { highlightId: string };

export const passageMarkKey = new PluginKey<DecorationSet>('passageMark');

const ATTRS = { class: 'fb-cited-passage', 'data-cited-passage': '' };

function mark(state: EditorState, passage: CitedPassage | null): DecorationSet {
  if (!passage) return DecorationSet.empty;
  const decorations: Decoration[] = [];
  if ('highlightId' in passage) {
    state.doc.descendants((node, pos) => {
      if (node.type.name === 'citation' && node.attrs.highlightId === passage.highlightId)
        decorations.push(Decoration.node(pos, pos + node.nodeSize, ATTRS));
    });
  } else {
    for (const r of offsetsToRanges(textMap(state.doc), passage.start, passage.end))
      decorations.push(Decoration.inline(r.from, r.to, ATTRS));
  }
  return DecorationSet.create(state.doc, decorations);
}

/**
 * Marks the passage a link opened the document at. Set with a transaction whose meta under
 * `passageMarkKey` is the passage (or null to clear); edits afterwards carry the mark along.
 */
export const PassageMark = Extension.create({
  name: 'passageMark',
  addProseMirrorPlugins() {
    return [
      new Plugin<DecorationSet>({
        key: passageMarkKey,
        state: {
          init: () => DecorationSet.empty,
          apply(tr, old, _oldState, newState) {
            const next = tr.getMeta(passageMarkKey) as CitedPassage | null | undefined;
            if (next !== undefined) return mark(newState, next);
            return tr.docChanged ? old.map(tr.mapping, tr.doc) : old;
          },
        },
        props: {
          decorations: (state) => passageMarkKey.getState(state) ?? DecorationSet.empty,
        },
      }),
    ];
  },
});
