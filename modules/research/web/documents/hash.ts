/**
 * The note view's state carried in the URL hash (000 §2): a highlight id, the shared flag, a file
 * and its page, and a text snippet with its start and end offsets in the note's plain text.
 * Citations link here: `#highlight={id}` for a cited highlight, `#text={words}&start=…&end=…` for
 * words quoted from the note. The AI module builds the same keys on the server (ask/retrieve.ts).
 */
export interface NoteHashState {
  highlightId: string | null;
  shared: boolean;
  fileId: string | null;
  page: number | null;
  text: string | null;
  start: number | null;
  end: number | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A snippet longer than this is not a quote but a page of text: cut, it still finds its start. */
const MAX_SNIPPET = 2000;

const count = (v: string | null): number | null => (v !== null && /^\d{1,9}$/.test(v) ? Number(v) : null);

export function parseNoteHash(hash: string): NoteHashState {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const highlight = params.get('highlight');
  const file = params.get('file');
  const text = params.get('text')?.slice(0, MAX_SNIPPET) ?? '';
  let start = count(params.get('start'));
  let end = count(params.get('end'));
  if (start === null || end === null || end <= start) {
    start = null;
    end = null;
  }
  return {
    highlightId: highlight && UUID.test(highlight) ? highlight : null,
    shared: params.get('shared') === '1' || params.get('shared') === 'true',
    fileId: file && UUID.test(file) ? file : null,
    page: count(params.get('page')),
    text: text.trim() ? text : null,
    start,
    end,
  };
}

export function formatNoteHash(state: Partial<NoteHashState>): string {
  const params = new URLSearchParams();
  if (state.highlightId) params.set('highlight', state.highlightId);
  if (state.shared) params.set('shared', '1');
  if (state.fileId) params.set('file', state.fileId);
  if (state.page != null) params.set('page', String(state.page));
  if (state.text) params.set('text', state.text);
  if (state.text && state.start != null && state.end != null) {
    params.set('start', String(state.start));
    params.set('end', String(state.end));
  }
  const text = params.toString();
  return text ? `#${text}` : '';
}

/**
 * Folds text the way the server checks AI quotes (core/src/ai/quotes.ts: compatibility forms,
 * typographic quotes and dashes, whitespace runs as one space, case), keeping for every folded
 * character the offset of the original one it came from.
 */
function fold(text: string): { folded: string; at: number[] } {
  let folded = '';
  const at: number[] = [];
  let space = false;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    let f = ch
      .normalize('NFKC')
      .replace(/[\u2018\u2019\u201A\u201B\u2032\u02BC`´]/g, "'")
      .replace(/[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/g, '"')
      .replace(/[\u2010-\u2015\u2212]/g, '-')
      .replace(/\u2026/g, '...')
      .toLocaleLowerCase('en');
    if (/^\s+$/.test(f)) {
      f = space ? '' : ' ';
      space = true;
    } else space = false;
    for (const c of f) {
      folded += c;
      at.push(i);
    }
    i += ch.length;
  }
  return { folded, at };
}

/**
 * Where a snippet sits in the note's plain text: at `start`–`end` when the text there is the
 * snippet, otherwise the first place it occurs (folded as quotes are checked). Null when absent.
 */
export function findPassage(
  plain: string,
  snippet: string,
  hint: { start: number | null; end: number | null } = { start: null, end: null },
): { start: number; end: number } | null {
  const wanted = fold(snippet)
    .folded.trim()
    .replace(/^["']+|["']+$/g, '');
  if (wanted.length < 3) return null;
  if (hint.start !== null && hint.end !== null && hint.end <= plain.length) {
    if (fold(plain.slice(hint.start, hint.end)).folded.trim() === wanted) return { start: hint.start, end: hint.end };
  }
  const { folded, at } = fold(plain);
  const i = folded.indexOf(wanted);
  if (i < 0) return null;
  const last = at[i + wanted.length - 1]!;
  const lastChar = String.fromCodePoint(plain.codePointAt(last)!);
  return { start: at[i]!, end: last + lastChar.length };
}
