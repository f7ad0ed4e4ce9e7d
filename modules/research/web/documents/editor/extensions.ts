import type { AnyExtension } from '@tiptap/core';
import Placeholder from '@tiptap/extension-placeholder';
import StarterKit from '@tiptap/starter-kit';
import { Citation } from './citation.ts';
import { HighlightPaint } from './highlight-paint.ts';
import { PassageMark } from './passage-mark.ts';

/** The editor's schema for notes and insights: the same on every page that shows a document. */
export function documentExtensions(options: { placeholder: string; linkNotes?: boolean }): AnyExtension[] {
  return [
    StarterKit.configure({ link: { openOnClick: false, autolink: true }, heading: { levels: [1, 2, 3] } }),
    Placeholder.configure({ placeholder: options.placeholder }),
    Citation.configure({ linkNotes: options.linkNotes ?? true }),
    HighlightPaint,
    PassageMark,
  ];
}
