import { compileFilter, normalizeFilter, parseFilter, type CompileContext } from '../../filters/index.ts';
import { withFilterErrors } from '../../filter-errors.ts';
import { predicateSql } from './predicate-sql.ts';
import { sourceFor } from './sources.ts';
import type { Sql } from './sql.ts';

export type ItemType = 'NOTE' | 'INSIGHT' | 'HIGHLIGHT';

export interface ItemFilterSql {
  /** The research table with its joins, the item as `t` and its project as `p`. */
  from: string;
  /** The filter as a condition over `t` and `p`; null when it filters nothing. */
  where: Sql | null;
}

/**
 * A saved filter form (000 §3) as SQL over one kind of research item, the way search reads it,
 * so a project view lists exactly what a search with the same filter would find. Bad forms
 * answer BAD_USER_INPUT naming `field`.
 */
export function itemFilterSql(filter: unknown, type: ItemType, ctx: CompileContext, field = 'filter'): ItemFilterSql {
  const source = sourceFor(type)!;
  return withFilterErrors(() => {
    const form = normalizeFilter(parseFilter(filter, field));
    return { from: source.from, where: form ? predicateSql(compileFilter(form, type, ctx), source) : null };
  });
}

/** Checks a filter form as a saved setting, without compiling it (BAD_USER_INPUT naming `field`). */
export function assertFilterForm(filter: unknown, field = 'filter'): void {
  withFilterErrors(() => parseFilter(filter, field));
}
