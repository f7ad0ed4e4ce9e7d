/** Markers ts_headline puts around matches: private-use characters no text of ours carries. */
export const MARK_START = '\uE000';
export const MARK_END = '\uE001';
/** The longest snippet shown, in characters of text (markers aside). */
export const SNIPPET_CHARS = 300;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * A headline as safe HTML: the text escaped, matches wrapped in `<mark>`, at most SNIPPET_CHARS
 * characters of text, never a mark left open.
 */
export function snippetHtml(headline: string): string {
  let out = '';
  let shown = 0;
  let open = false;
  for (const char of headline.replace(/\s+/g, ' ').trim()) {
    if (char === MARK_START) {
      if (!open) out += '<mark>';
      open = true;
    } else if (char === MARK_END) {
      if (open) out += '</mark>';
      open = false;
    } else {
      if (shown >= SNIPPET_CHARS) {
        out += '…';
        break;
      }
      out += escapeHtml(char);
      shown += 1;
    }
  }
  return open ? `${out}</mark>` : out;
}
