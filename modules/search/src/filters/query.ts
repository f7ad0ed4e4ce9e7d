import { badFilterInput } from './errors.ts';

/** Search query limits (000 §9). */
export const QUERY_LIMITS = { chars: 2000, words: 60 } as const;

/**
 * A search query taken apart (000 §5): quoted phrases match exactly; the other words match as
 * words, and the last one, while still being typed (no space after it), as a prefix.
 */
export interface ParsedQuery {
  phrases: string[];
  words: string[];
  prefix: string | null;
}

const QUOTES = /["\u201C\u201D]/;

/** Words as people count them: quotes do not count, and a phrase counts each of its words. */
export const countQueryWords = (query: string): number => query.split(/[\s"\u201C\u201D]+/).filter(Boolean).length;

/** Trims a query and holds it to the limits; blank queries are unset (002 §5). */
export function validateQuery(raw: unknown, field = 'query'): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') throw badFilterInput(field, 'The search query must be text.');
  const query = raw.trim();
  if (query === '') return undefined;
  if (query.length > QUERY_LIMITS.chars) {
    throw badFilterInput(field, `The search query can be at most ${QUERY_LIMITS.chars} characters long.`);
  }
  if (countQueryWords(query) > QUERY_LIMITS.words) {
    throw badFilterInput(field, `The search query can be at most ${QUERY_LIMITS.words} words long.`);
  }
  return query;
}

/**
 * Splits a query into exact phrases, words and a trailing prefix. An unclosed quote is read as
 * if it were not there, since people often type only the opening one.
 */
export function parseQuery(query: string): ParsedQuery {
  const phrases: string[] = [];
  const words: string[] = [];
  const tokens: Array<{ text: string; phrase: boolean }> = [];
  const parts = query.split(QUOTES);
  // Split on quotes: odd parts are inside a pair; a final odd part has no closing quote.
  const closed = parts.length % 2 === 1 ? parts.length : parts.length - 1;
  parts.forEach((part, i) => {
    const quoted = i % 2 === 1 && i < closed;
    if (quoted) {
      const phrase = part.trim().replace(/\s+/g, ' ');
      if (phrase) tokens.push({ text: phrase, phrase: true });
    } else {
      for (const word of part.split(/\s+/).filter(Boolean)) tokens.push({ text: word, phrase: false });
    }
  });
  const last = tokens.at(-1);
  const typing = last !== undefined && !last.phrase && !/\s$/.test(query);
  const prefix = typing ? last.text : null;
  for (const token of typing ? tokens.slice(0, -1) : tokens) (token.phrase ? phrases : words).push(token.text);
  return { phrases, words, prefix };
}
