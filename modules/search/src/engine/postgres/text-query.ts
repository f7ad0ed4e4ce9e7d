import type { TextSearch } from '../../filters/index.ts';
import type { Source } from './sources.ts';
import { join, raw, sql, type Sql } from './sql.ts';

/** The configuration the stored vectors use: `simple` with accents removed (migration 0011). */
export const TS_CONFIG = 'fb_search';

const PIECES = /[^\p{L}\p{N}]+/u;

/**
 * The query as a tsquery: each quoted phrase exact (`phraseto_tsquery`), the other words all
 * required (`plainto_tsquery`), and the word still being typed as a prefix (`:*`). The typed
 * prefix is cut to letters and digits before it is quoted, so it can never be read as tsquery
 * syntax; the rest goes through the parsing functions as plain text.
 */
export function tsquerySql(text: TextSearch): Sql {
  const parts: Sql[] = text.phrases.map((phrase) => sql`phraseto_tsquery('fb_search', ${phrase})`);
  const words = [...text.words];
  let prefix: string | null = null;
  if (text.prefix !== null) {
    const pieces = text.prefix.split(PIECES).filter(Boolean);
    prefix = pieces.pop() ?? null;
    words.push(...pieces);
  }
  if (words.length > 0) parts.push(sql`plainto_tsquery('fb_search', ${words.join(' ')})`);
  if (prefix !== null) parts.push(sql`to_tsquery('fb_search', quote_literal(${prefix}) || ':*')`);
  return parts.length === 0 ? raw(`''::tsquery`) : sql`(${join(parts, ' && ')})`;
}

/** Whether the query asks for the title alone (projects-only mode) of a type that has more. */
export const titleOnly = (text: TextSearch, source: Source): boolean =>
  source.content !== null && !text.attributes.includes('content') && !text.attributes.includes('name');

/** The stored vector, held to its title (weight A) when only titles are searched. */
export const vectorSql = (text: TextSearch, source: Source): Sql =>
  titleOnly(text, source) ? raw(`ts_filter(${source.vector}, '{a}')`) : raw(source.vector);

/**
 * Words a typo-tolerant match compares by trigram similarity: only for short queries of plain
 * words (a quoted phrase asks for exactly that), and only words of three letters or more, since
 * shorter ones share too few trigrams to say anything.
 */
export function fuzzyWords(text: TextSearch): string[] {
  if (text.phrases.length > 0) return [];
  const words = [...text.words, ...(text.prefix === null ? [] : [text.prefix])]
    .flatMap((w) => w.split(PIECES))
    .filter((w) => w.length >= 3);
  return words.length >= 1 && words.length <= 3 ? words : [];
}

/** Every word is close to a word of one of the type's texts (`<%` is pg_trgm's word similarity). */
export function fuzzyMatchSql(words: readonly string[], text: TextSearch, source: Source): { match: Sql; score: Sql } {
  const columns = titleOnly(text, source) ? source.fuzzy.slice(0, 1) : source.fuzzy;
  const matches = words.map(
    (w) =>
      sql`(${join(
        columns.map((c) => sql`fb_search_text(${w}) <% ${raw(c)}`),
        ' or ',
      )})`,
  );
  const scores = words.map(
    (w) =>
      sql`greatest(${join(
        columns.map((c) => sql`word_similarity(fb_search_text(${w}), ${raw(c)})`),
        ', ',
      )})`,
  );
  return { match: join(matches, ' and '), score: sql`((${join(scores, ' + ')}) / ${words.length}::float8)` };
}
