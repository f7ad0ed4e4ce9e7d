import { Extension } from '@tiptap/core';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { offsetsToRanges, textMap } from './text-map.ts';

/** A highlight to paint: a span of the document's plain text and its fill. */
export interface PaintedHighlight {
  id: string;
  startOffset: number;
  endOffset: number;
  fill: string | null;
}

/** The fill of highlights without a colour (a warm yellow at the highlight alpha of 0.2). */
export const DEFAULT_HIGHLIGHT_FILL = 'rgba(250, 176, 5, 0.2)';

interface PaintState {
  highlights: readonly PaintedHighlight[];
  decorations: DecorationSet;
}

export const highlightPaintKey = new PluginKey<PaintState>('highlightPaint');

function paint(state: EditorState, highlights: readonly PaintedHighlight[]): DecorationSet {
  if (!highlights.length) return DecorationSet.empty;
  const map = textMap(state.doc);
  const decorations: Decoration[] = [];
  for (const h of highlights) {
    for (const r of offsetsToRanges(map, h.startOffset, h.endOffset)) {
      decorations.push(
        Decoration.inline(r.from, r.to, {
          class: 'fb-highlight',
          style: `background-color: ${h.fill ?? DEFAULT_HIGHLIGHT_FILL}`,
          'data-highlight-id': h.id,
        }),
      );
    }
  }
  return DecorationSet.create(state.doc, decorations);
}

/**
 * Paints stored highlights over the text. Highlights point at offsets of the saved plain text, so
 * they are painted again from those offsets whenever the document or the list changes.
 */
export const HighlightPaint = Extension.create({
  name: 'highlightPaint',
  addProseMirrorPlugins() {
    return [
      new Plugin<PaintState>({
        key: highlightPaintKey,
        state: {
          init: () => ({ highlights: [], decorations: DecorationSet.empty }),
          apply(tr, old, _oldState, newState) {
            const next = tr.getMeta(highlightPaintKey) as readonly PaintedHighlight[] | undefined;
            if (next) return { highlights: next, decorations: paint(newState, next) };
            if (tr.docChanged) return { highlights: old.highlights, decorations: paint(newState, old.highlights) };
            return old;
          },
        },
        props: {
          decorations: (state) => highlightPaintKey.getState(state)?.decorations ?? DecorationSet.empty,
        },
      }),
    ];
  },
});
