import type { Editor } from '@tiptap/react';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import type { DocumentKind, Highlight } from './api.ts';
import { passageMarkKey, type CitedPassage } from './editor/passage-mark.ts';
import { textMap } from './editor/text-map.ts';
import { findPassage, parseNoteHash } from './hash.ts';

/** Whether the link's passage was found and shown, could not be found, or none was asked for. */
export type CitedPassageStatus = 'shown' | 'missing' | null;

function passageOf(editor: Editor, kind: DocumentKind, hash: string, highlights: readonly Highlight[]) {
  const state = parseNoteHash(hash);
  if (!state.highlightId && !state.text) return undefined;
  let passage: CitedPassage | null = null;
  if (state.highlightId) {
    const id = state.highlightId;
    const h = highlights.find((x) => x.id === id);
    if (kind === 'note' && h) passage = { start: h.startOffset, end: h.endOffset };
    if (kind === 'insight') {
      let cites = false;
      editor.state.doc.descendants((node) => {
        if (node.type.name === 'citation' && node.attrs.highlightId === id) cites = true;
      });
      if (cites) passage = { highlightId: id };
    }
  }
  if (!passage && state.text) passage = findPassage(textMap(editor.state.doc).text, state.text, state);
  return passage;
}

/**
 * The passage the URL hash names (000 §2: a highlight id, or a text snippet with its offsets):
 * marked in the editor and scrolled into the middle of the screen when the document opens, and
 * again whenever a link on the page (a summary's quote) changes the hash; a hash without one
 * takes the mark away.
 */
export function useCitedPassage(
  editor: Editor | null,
  kind: DocumentKind,
  highlights: readonly Highlight[],
): CitedPassageStatus {
  const location = useLocation();
  const [status, setStatus] = useState<CitedPassageStatus>(null);
  // Highlights made or removed later do not move the reader back to the passage.
  const highlightsRef = useRef(highlights);
  highlightsRef.current = highlights;

  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const passage = passageOf(editor, kind, location.hash, highlightsRef.current);
    editor.view.dispatch(editor.state.tr.setMeta(passageMarkKey, passage ?? null).setMeta('addToHistory', false));
    setStatus(passage === undefined ? null : passage ? 'shown' : 'missing');
    if (!passage) return;
    let cancelled = false;
    const reveal = () => {
      if (cancelled || editor.isDestroyed) return;
      editor.view.dom.querySelector('[data-cited-passage]')?.scrollIntoView({ block: 'center' });
    };
    requestAnimationFrame(reveal);
    // Text laid out again in its web font wraps differently: the passage is found again once fonts are in.
    void document.fonts?.ready.then(reveal);
    return () => {
      cancelled = true;
    };
  }, [editor, kind, location.hash, location.key]);

  return status;
}
