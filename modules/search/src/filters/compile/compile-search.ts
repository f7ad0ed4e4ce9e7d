import { normalizeFilter } from '../normalize.ts';
import type { FieldForm, FilterForm } from '../form.ts';
import type { SearchParams, SearchSort } from '../params.ts';
import { parseQuery, type ParsedQuery } from '../query.ts';
import { OUTSIDE_PROJECTS, SEARCH_RESULT_TYPES, type SearchResultType } from '../search-types.ts';
import { RESULT_SCHEMAS } from './attributes.ts';
import { compileForm, type CompileContext } from './compile-form.ts';
import { TRUE, and, isFalse, or, type Predicate } from './predicate.ts';

/** What a query matches in one result type. */
export interface TextSearch extends ParsedQuery {
  /** The query as given (trimmed). */
  query: string;
  attributes: string[];
}

export interface ResultSearch {
  type: SearchResultType;
  where: Predicate;
  text: TextSearch | null;
}

export interface CompiledSearch {
  /** The result types searched, in the order results are shown. */
  order: SearchResultType[];
  searches: ResultSearch[];
  sort: SearchSort[];
  limit: number;
  offset: number;
}

/**
 * Compiles search parameters into one engine-neutral search per result type (000 §7). Blank
 * forms are dropped first; a result type no filter could match is left out altogether, as are
 * folders, channels, themes and people when the search is held to projects.
 */
export function compileSearch(params: SearchParams, ctx: CompileContext): CompiledSearch {
  const requested = params.resultTypes.length > 0 ? params.resultTypes : SEARCH_RESULT_TYPES;
  // Projects-only mode: the query matches project titles alone (000 §7).
  const projectsOnly = requested.length === 1 && requested[0] === 'PROJECT';
  const inOrder = SEARCH_RESULT_TYPES.filter((type) => requested.includes(type));
  const candidates =
    params.projectIds.length > 0 ? inOrder.filter((type) => !OUTSIDE_PROJECTS.includes(type)) : inOrder;

  const filter = normalizeFilter(params.filter);
  const scope = scopeForms(params);
  const parsed = params.query === undefined ? null : { query: params.query, parts: parseQuery(params.query) };

  const searches: ResultSearch[] = [];
  for (const type of candidates) {
    const where = and(compileFilter(filter, type, ctx), ...scope.map((form) => compileForm(form, type, ctx)));
    if (isFalse(where)) continue;
    const text =
      parsed === null
        ? null
        : {
            query: parsed.query,
            ...parsed.parts,
            attributes: projectsOnly ? ['title'] : [...RESULT_SCHEMAS[type].text],
          };
    searches.push({ type, where, text });
  }
  return {
    order: searches.map((s) => s.type),
    searches,
    sort: params.sort,
    limit: params.limit,
    offset: params.offset,
  };
}

export function compileFilter(filter: FilterForm | null, type: SearchResultType, ctx: CompileContext): Predicate {
  if (filter === null) return TRUE;
  const parts = filter.forms.map((form) => compileForm(form, type, ctx));
  return filter.combinator === 'and' ? and(...parts) : or(...parts);
}

/** The project, tag and folder ids of the parameters, as the forms they amount to. */
function scopeForms(params: SearchParams): FieldForm[] {
  const forms: FieldForm[] = [];
  if (params.projectIds.length > 0) {
    forms.push({
      id: 'scope.projects',
      field: 'Project',
      operator: 'oneOf',
      values: { Project: { projectMultiselect: params.projectIds } },
    });
  }
  if (params.tagIds.length > 0) {
    forms.push({
      id: 'scope.tags',
      field: 'Tags',
      operator: 'oneOf',
      values: { Tags: { tagMultiselect: params.tagIds } },
    });
  }
  if (params.projectCategoryIds.length > 0) {
    forms.push({
      id: 'scope.folders',
      field: 'ProjectCategory',
      operator: 'oneOf',
      values: { ProjectCategory: { folderMultiselect: params.projectCategoryIds } },
    });
  }
  return forms;
}
