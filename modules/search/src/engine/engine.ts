import type { CompiledSearch, Scalar, SearchResultType } from '../filters/index.ts';

/**
 * The contract every search engine keeps (PostgreSQL by default, Typesense when configured).
 * An engine receives searches already compiled by the filter model (engine-neutral predicates
 * over the attributes of `RESULT_SCHEMAS`) and the searcher's access, and answers hits and
 * counts; it never sees filter forms, and it never answers an item outside `access`.
 */
export interface SearchEngine {
  readonly name: string;
  /** One page of hits over every searched result type, plus the counts per type. */
  search(request: SearchRequest): Promise<SearchResults>;
  /** Adds or replaces documents. Engines reading the database directly may do nothing. */
  index(workspaceId: string, documents: readonly SearchDocument[]): Promise<void>;
  /** Removes documents by type and id (deleted, trashed or moved out of reach). */
  remove(workspaceId: string, refs: readonly SearchDocumentRef[]): Promise<void>;
  /** Rebuilds a workspace's whole index, reporting progress as it goes. */
  reindex(workspaceId: string, onProgress?: (progress: ReindexProgress) => void): Promise<ReindexProgress>;
}

/** Which projects the searcher may read, computed once per request. */
export interface SearchAccess {
  /** When true every project of the workspace is readable and `projectIds` is ignored. */
  allProjects: boolean;
  /** The readable project ids when `allProjects` is false. */
  projectIds: readonly string[];
}

export interface SearchRequest {
  workspaceId: string;
  /** The searcher; null for an anonymous (shared-link) search. */
  userId: string | null;
  access: SearchAccess;
  /** Per-type predicates, text query, sort and paging from `compileSearch`. */
  compiled: CompiledSearch;
}

export interface SearchHit {
  type: SearchResultType;
  id: string;
  title: string;
  /** The matched part of the text, HTML-escaped, matches wrapped in `<mark>`; null without a query. */
  snippet: string | null;
  projectId: string | null;
  projectTitle: string | null;
  /** The item the hit belongs under: a highlight's note; null for the others. */
  parentId: string | null;
  /** Higher is better; 0 when the search has no query. */
  score: number;
  updatedAt: Date;
}

export interface SearchResults {
  hits: SearchHit[];
  /** All hits of the search, ignoring limit and offset: the sum of `countsByType`. */
  totalCount: number;
  /** Whether any count in `countsByType` is an estimate, which makes the total one too. */
  totalIsEstimate: boolean;
  /** Hits per searched result type, in the compiled result order. */
  countsByType: SearchTypeCount[];
}

export interface SearchTypeCount {
  type: SearchResultType;
  count: number;
  /** True when an engine estimated the count rather than counting every hit (large counts only). */
  isEstimate: boolean;
}

export interface SearchDocumentRef {
  type: SearchResultType;
  id: string;
}

/**
 * One indexed item. `attributes` holds every attribute the type's schema names (see
 * `RESULT_SCHEMAS` in filters/compile/attributes.ts: e.g. `createdAt`, `tagIds`, `starredBy`,
 * custom field values keyed by field id): a scalar, a list of ids, or null when unset. Dates are
 * ISO 8601 strings so predicates compare them as they do numbers.
 */
export interface SearchDocument extends SearchDocumentRef {
  workspaceId: string;
  /** The project the item lives in (the project itself for PROJECT); null for folders and people. */
  projectId: string | null;
  projectTitle: string | null;
  /** Title, or name for people; empty for highlights, which show their text instead. */
  title: string;
  /** Plain text searched with weight B (note and insight text, project readme, highlight text). */
  content: string;
  createdAt: string;
  updatedAt: string;
  attributes: Record<string, Scalar | string[] | null>;
}

export interface ReindexProgress {
  /** Documents written so far, and the total expected. */
  done: number;
  total: number;
}
