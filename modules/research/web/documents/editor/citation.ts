import { Node, mergeAttributes } from '@tiptap/core';
import { formatNoteHash } from '../hash.ts';

export interface CitationAttrs {
  highlightId: string;
  text: string;
  noteTitle: string;
  noteId: string | null;
}

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    citation: {
      /** Inserts a cited highlight as a block after the current one. */
      insertCitation: (attrs: CitationAttrs) => ReturnType;
    };
  }
}

/**
 * A highlight an insight cites: its words and the note they come from, kept in the document as a
 * block so the plain text of the insight stays as the server derives it (a block of its own).
 * Signed-out readers get the note's title without a link into the workspace.
 */
export const Citation = Node.create<{ linkNotes: boolean }>({
  name: 'citation',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: false,

  addOptions() {
    return { linkNotes: true };
  },

  addAttributes() {
    return {
      highlightId: {
        default: null,
        parseHTML: (el) => el.getAttribute('data-highlight-id'),
        renderHTML: (a) => ({ 'data-highlight-id': a.highlightId as string }),
      },
      text: {
        default: '',
        parseHTML: (el) => el.querySelector('blockquote')?.textContent ?? '',
        renderHTML: () => ({}),
      },
      noteTitle: {
        default: '',
        parseHTML: (el) => el.querySelector('figcaption')?.textContent ?? '',
        renderHTML: () => ({}),
      },
      noteId: {
        default: null,
        parseHTML: (el) => el.getAttribute('data-note-id'),
        renderHTML: (a) => (a.noteId ? { 'data-note-id': a.noteId as string } : {}),
      },
    };
  },

  parseHTML() {
    return [{ tag: 'figure[data-citation]' }];
  },

  renderHTML({ node, HTMLAttributes }) {
    const { text, noteTitle, noteId, highlightId } = node.attrs as CitationAttrs;
    const title = noteTitle || 'Untitled note';
    // The link opens the note at the cited words (the note page reads the highlight from the hash).
    const href = `/data/${noteId}${highlightId ? formatNoteHash({ highlightId }) : ''}`;
    const source = this.options.linkNotes && noteId ? ['a', { href }, title] : ['span', {}, title];
    return [
      'figure',
      mergeAttributes(HTMLAttributes, { 'data-citation': '', class: 'fb-citation' }),
      ['blockquote', {}, text],
      ['figcaption', {}, 'From ', source],
    ];
  },

  addCommands() {
    return {
      insertCitation:
        (attrs) =>
        ({ commands, state }) => {
          const { $to } = state.selection;
          const at = $to.depth > 0 ? $to.after(1) : $to.pos;
          return commands.insertContentAt(at, { type: this.name, attrs });
        },
    };
  },
});
