import type { Knex } from 'knex';
import type { Client } from 'typesense';
import { withTenant } from '@fieldbook/core';
import {
  RELEVANCE,
  SEARCH_RESULT_TYPES,
  attributeFor,
  isCustomFieldId,
  isSystemField,
  type ResultSearch,
  type SearchResultType,
  type SearchSort,
} from '../../filters/index.ts';
import type {
  ReindexProgress,
  SearchDocument,
  SearchDocumentRef,
  SearchEngine,
  SearchHit,
  SearchRequest,
  SearchResults,
} from '../engine.ts';
import { MARK_END, MARK_START, snippetHtml } from '../postgres/snippet.ts';
import { toTypesenseDocument, type TypesenseDocument } from './documents.ts';
import { quote, searchFilterBy } from './filter-by.ts';
import { countDocuments, hasSource, loadDocuments } from './load.ts';
import {
  INDEXED_AT,
  SYSTEM_ATTRIBUTE_KINDS,
  TITLE_SORT,
  allCollectionSchemas,
  collectionName,
  customField,
  customFieldId,
  systemField,
  type CollectionSchema,
} from './schema.ts';

/** Typesense answers at most 250 hits a page. */
const MAX_PER_PAGE = 250;
/** Searches per multi_search request (Typesense's default `limit_multi_searches`). */
const MAX_SEARCHES = 50;
/** Typesense sorts by at most three fields. */
const MAX_SORT_FIELDS = 3;
const IMPORT_BATCH = 500;
const REINDEX_BATCH = 500;
/** Result types whose items live in a project (the project itself included). */
const PROJECT_TYPES: readonly SearchResultType[] = ['PROJECT', 'NOTE', 'INSIGHT', 'HIGHLIGHT', 'TAG'];

export interface TypesenseEngineOptions {
  client: Client;
  /** The application database, read when reindexing. */
  db: Knex;
  /** Collection names start with this, so several installs can share a server. */
  collectionPrefix?: string;
}

interface Hit {
  document: TypesenseDocument;
  text_match?: number;
  highlights?: Array<{ field: string; snippet?: string }>;
  highlight?: Record<string, { snippet?: string } | undefined>;
}

interface Result {
  found?: number;
  hits?: Hit[];
  code?: number;
  error?: string;
}

interface Planned {
  search: ResultSearch;
  order: number;
  /** Index of the first page's request in the multi_search list. */
  first: number;
  pages: number;
}

interface Ranked {
  hit: SearchHit;
  /** One key per requested sort; null where the item has no value. */
  keys: Array<string | number | null>;
  order: number;
  score: number;
  updatedAt: number;
}

/**
 * Search through Typesense (when `TYPESENSE_URL` is set): one collection per result type, one
 * multi_search per page of results, `filter_by` compiled from the same predicates as the
 * PostgreSQL engine with the access filter always AND-ed in. The index is kept in step by the
 * `search.changes` job draining the outbox (outbox.ts) and rebuilt by `search.reindex`; PostgreSQL
 * stays the system of record.
 */
export class TypesenseEngine implements SearchEngine {
  readonly name = 'typesense';
  private readonly client: Client;
  private readonly db: Knex;
  private readonly prefix: string;
  private ready: Promise<void> | null = null;

  constructor(options: TypesenseEngineOptions) {
    this.client = options.client;
    this.db = options.db;
    this.prefix = options.collectionPrefix ?? 'fieldbook_';
  }

  /** Creates the collections that are missing and adds fields a newer release declares; idempotent. */
  async ensureCollections(): Promise<void> {
    this.ready ??= this.createCollections().catch((err: unknown) => {
      this.ready = null;
      throw err;
    });
    return this.ready;
  }

  private async createCollections(): Promise<void> {
    for (const schema of allCollectionSchemas(this.prefix)) {
      const existing = await this.retrieve(schema.name);
      if (existing === null) {
        try {
          await this.client.collections().create(schema as never);
        } catch (err) {
          // Another process created it first.
          if (status(err) !== 409) throw err;
        }
        continue;
      }
      const known = new Set(existing.fields.map((f) => f.name));
      const missing = schema.fields.filter((f) => !known.has(f.name));
      if (missing.length > 0) await this.client.collections(schema.name).update({ fields: missing } as never);
    }
  }

  private async retrieve(name: string): Promise<CollectionSchema | null> {
    try {
      return (await this.client.collections(name).retrieve()) as unknown as CollectionSchema;
    } catch (err) {
      if (status(err) === 404) return null;
      throw err;
    }
  }

  async search(request: SearchRequest): Promise<SearchResults> {
    await this.ensureCollections();
    const { compiled } = request;
    const wanted = compiled.offset + compiled.limit;
    const perPage = Math.max(1, Math.min(MAX_PER_PAGE, wanted));
    const pages = Math.max(1, Math.ceil(wanted / MAX_PER_PAGE));

    const searches: Array<Record<string, unknown>> = [];
    const planned: Planned[] = [];
    compiled.searches.forEach((search, order) => {
      const filter = searchFilterBy(request.workspaceId, request.access, search.type, search.where);
      if (filter === false) return;
      const params = searchParams(this.collection(search.type), search, compiled.sort, filter);
      planned.push({ search, order, first: searches.length, pages });
      for (let page = 1; page <= pages; page += 1) searches.push({ ...params, per_page: perPage, page });
    });

    const results: Result[] = [];
    for (let i = 0; i < searches.length; i += MAX_SEARCHES) {
      const response = (await this.client.multiSearch.perform({
        searches: searches.slice(i, i + MAX_SEARCHES),
      } as never)) as unknown as { results: Result[] };
      results.push(...response.results);
    }

    const counts = new Map<SearchResultType, number>();
    const ranked: Ranked[] = [];
    for (const plan of planned) {
      const first = results[plan.first];
      if (!first || first.code !== undefined)
        throw new Error(`Typesense search of ${plan.search.type} failed: ${first?.error ?? 'no answer'}`);
      counts.set(plan.search.type, first.found ?? 0);
      for (let page = 0; page < plan.pages; page += 1) {
        for (const hit of results[plan.first + page]?.hits ?? []) ranked.push(rank(hit, plan, compiled.sort));
      }
    }
    ranked.sort((a, b) => compareRanked(a, b, compiled.sort));
    const hits = ranked.slice(compiled.offset, compiled.offset + compiled.limit).map((r) => r.hit);
    // Typesense counts every hit it found.
    const countsByType = compiled.order.map((type) => ({ type, count: counts.get(type) ?? 0, isEstimate: false }));
    return {
      hits,
      totalCount: countsByType.reduce((sum, c) => sum + c.count, 0),
      totalIsEstimate: false,
      countsByType,
    };
  }

  async index(workspaceId: string, documents: readonly SearchDocument[]): Promise<void> {
    await this.ensureCollections();
    const indexedAt = Date.now();
    const byType = groupBy(documents, (d) => d.type);
    for (const [type, docs] of byType) {
      const converted = docs.map((d) => ({ ...toTypesenseDocument({ ...d, workspaceId }), [INDEXED_AT]: indexedAt }));
      for (let i = 0; i < converted.length; i += IMPORT_BATCH) {
        // Upsert replaces each document whole, so an attribute that became empty is gone from it too.
        await this.client
          .collections<TypesenseDocument>(this.collection(type))
          .documents()
          .import(converted.slice(i, i + IMPORT_BATCH), { action: 'upsert' });
      }
    }
  }

  async remove(workspaceId: string, refs: readonly SearchDocumentRef[]): Promise<void> {
    await this.ensureCollections();
    for (const [type, items] of groupBy(refs, (r) => r.type)) {
      const ids = items.map((r) => quote(r.id.toLowerCase())).join(',');
      await this.client
        .collections(this.collection(type))
        .documents()
        .delete({ filter_by: `workspaceId:=${quote(workspaceId.toLowerCase())} && itemId:=[${ids}]` });
    }
  }

  /**
   * Streams every live item of the workspace from PostgreSQL in batches (keyset paging, one short
   * transaction per batch) and upserts them; then drops the workspace's documents this run did
   * not write, which are items deleted while no job told the index.
   */
  async reindex(workspaceId: string, onProgress?: (progress: ReindexProgress) => void): Promise<ReindexProgress> {
    await this.ensureCollections();
    const started = Date.now();
    const types = SEARCH_RESULT_TYPES.filter(hasSource);
    const total = await withTenant(this.db, { workspaceId }, async (trx) => {
      let sum = 0;
      for (const type of types) sum += await countDocuments(trx, workspaceId, type);
      return sum;
    });
    const progress: ReindexProgress = { done: 0, total };
    onProgress?.({ ...progress });
    for (const type of types) {
      let afterId: string | undefined;
      for (;;) {
        const options = afterId === undefined ? { limit: REINDEX_BATCH } : { afterId, limit: REINDEX_BATCH };
        const batch = await withTenant(this.db, { workspaceId }, (trx) =>
          loadDocuments(trx, workspaceId, type, options),
        );
        if (batch.length === 0) break;
        await this.index(workspaceId, batch);
        progress.done += batch.length;
        // Items added while the run goes may take it past the first count.
        progress.total = Math.max(progress.total, progress.done);
        onProgress?.({ ...progress });
        afterId = batch.at(-1)!.id;
        if (batch.length < REINDEX_BATCH) break;
      }
    }
    for (const type of SEARCH_RESULT_TYPES) {
      await this.client
        .collections(this.collection(type))
        .documents()
        .delete({ filter_by: `workspaceId:=${quote(workspaceId.toLowerCase())} && ${INDEXED_AT}:<${started}` });
    }
    return { ...progress };
  }

  /**
   * Re-reads items from PostgreSQL and brings the index in step: upserted when live and readable
   * there, removed otherwise (deleted, trashed, in a trashed project). Idempotent, so a job may
   * run it any number of times. Reads in `trx` when given (it must be scoped to the workspace).
   */
  async sync(workspaceId: string, refs: readonly SearchDocumentRef[], trx?: Knex.Transaction): Promise<void> {
    if (refs.length === 0) return;
    const read = async (t: Knex.Transaction) => {
      const out: SearchDocument[] = [];
      for (const [type, items] of groupBy(refs, (r) => r.type)) {
        out.push(...(await loadDocuments(t, workspaceId, type, { ids: items.map((r) => r.id), limit: items.length })));
      }
      return out;
    };
    const found = trx ? await read(trx) : await withTenant(this.db, { workspaceId }, read);
    const live = new Set(found.map((d) => `${d.type}:${d.id.toLowerCase()}`));
    const gone = refs.filter((r) => !live.has(`${r.type}:${r.id.toLowerCase()}`));
    if (found.length > 0) await this.index(workspaceId, found);
    if (gone.length > 0) await this.remove(workspaceId, gone);
  }

  /**
   * Re-reads every item of a project (its title, folder and trash state are part of their
   * documents) and drops the project's documents this pass did not write: all of them when the
   * project is trashed or gone. Returns the documents written.
   */
  async syncProject(workspaceId: string, projectId: string, trx?: Knex.Transaction): Promise<number> {
    await this.ensureCollections();
    const started = Date.now();
    let written = 0;
    for (const type of PROJECT_TYPES) {
      let afterId: string | undefined;
      for (;;) {
        const options = { projectId, limit: REINDEX_BATCH, ...(afterId === undefined ? {} : { afterId }) };
        const read = (t: Knex.Transaction) => loadDocuments(t, workspaceId, type, options);
        const batch = trx ? await read(trx) : await withTenant(this.db, { workspaceId }, read);
        if (batch.length === 0) break;
        await this.index(workspaceId, batch);
        written += batch.length;
        afterId = batch.at(-1)!.id;
        if (batch.length < REINDEX_BATCH) break;
      }
      await this.client
        .collections(this.collection(type))
        .documents()
        .delete({
          filter_by: `workspaceId:=${quote(workspaceId.toLowerCase())} && projectId:=${quote(projectId.toLowerCase())} && ${INDEXED_AT}:<${started}`,
        });
    }
    return written;
  }

  private collection(type: SearchResultType): string {
    return collectionName(this.prefix, type);
  }
}

function status(err: unknown): number | undefined {
  return typeof err === 'object' && err !== null && 'httpStatus' in err
    ? (err as { httpStatus?: number }).httpStatus
    : undefined;
}

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const list = out.get(key(item)) ?? [];
    list.push(item);
    out.set(key(item), list);
  }
  return out;
}

/** The Typesense field a sort reads on a type, or null when the type has nothing to sort by. */
export function sortField(type: SearchResultType, field: string): { name: string; optional: boolean } | null {
  if (isCustomFieldId(field)) {
    const id = customFieldId(field);
    return id === null ? null : { name: customField(id, 'o'), optional: true };
  }
  if (!isSystemField(field)) return null;
  const attribute = attributeFor(type, field)?.name;
  if (attribute === undefined) return null;
  if (attribute === 'title' || attribute === 'name') return { name: TITLE_SORT, optional: false };
  const kind = SYSTEM_ATTRIBUTE_KINDS[attribute];
  if (kind === 'time') return { name: systemField(attribute), optional: false };
  if (kind === 'number') return { name: systemField(attribute), optional: true };
  return null;
}

/** The `sort_by` of one type: the requested sorts it has, then relevance and recency, three at most. */
export function sortBy(type: SearchResultType, sorts: readonly SearchSort[]): string {
  const parts: string[] = [];
  const seen = new Set<string>();
  const add = (name: string, text: string): void => {
    if (seen.has(name) || parts.length >= MAX_SORT_FIELDS) return;
    seen.add(name);
    parts.push(text);
  };
  for (const sort of sorts) {
    const direction = sort.direction === 'DESC' ? 'desc' : 'asc';
    if (sort.field === RELEVANCE) {
      add('_text_match', `_text_match:${direction}`);
      continue;
    }
    const field = sortField(type, sort.field);
    // Items without the value come last either way, as in the PostgreSQL engine.
    if (field)
      add(
        field.name,
        field.optional ? `${field.name}(missing_values: last):${direction}` : `${field.name}:${direction}`,
      );
  }
  add('_text_match', '_text_match:desc');
  add('updatedAt', 'updatedAt:desc');
  return parts.join(',');
}

/** What Typesense searches: the parsed query's phrases (quoted), words and the word being typed. */
export function queryText(search: ResultSearch): { q: string; prefix: boolean } {
  const text = search.text;
  if (text === null) return { q: '*', prefix: false };
  const parts = [...text.phrases.map((p) => `"${p.replace(/"/g, '')}"`), ...text.words];
  if (text.prefix !== null) parts.push(text.prefix);
  return { q: parts.join(' '), prefix: text.prefix !== null };
}

function searchParams(
  collection: string,
  search: ResultSearch,
  sorts: readonly SearchSort[],
  filter: string,
): Record<string, unknown> {
  const { q, prefix } = queryText(search);
  const queryBy = search.text?.attributes ?? [search.type === 'PERSON' ? 'name' : 'title'];
  return {
    collection,
    q,
    query_by: queryBy.join(','),
    prefix: String(prefix),
    filter_by: filter,
    sort_by: sortBy(search.type, sorts),
    // Every word must match (close spellings count), as in the PostgreSQL engine.
    drop_tokens_threshold: 0,
    highlight_fields: queryBy.join(','),
    highlight_start_tag: MARK_START,
    highlight_end_tag: MARK_END,
    highlight_affix_num_tokens: 12,
    exclude_fields: 'content',
  };
}

function rank(hit: Hit, plan: Planned, sorts: readonly SearchSort[]): Ranked {
  const doc = hit.document;
  const score = plan.search.text === null ? 0 : (hit.text_match ?? 0);
  const keys = sorts.map((sort) => {
    if (sort.field === RELEVANCE) return score;
    const field = sortField(plan.search.type, sort.field);
    const value = field ? doc[field.name] : undefined;
    return typeof value === 'string' || typeof value === 'number'
      ? value
      : typeof value === 'boolean'
        ? Number(value)
        : null;
  });
  const updatedAt = typeof doc.updatedAt === 'number' ? doc.updatedAt : 0;
  return {
    order: plan.order,
    keys,
    score,
    updatedAt,
    hit: {
      type: plan.search.type,
      id: doc.id,
      title: typeof doc.title === 'string' ? doc.title : '',
      snippet: plan.search.text === null ? null : snippetOf(hit),
      projectId: typeof doc.projectId === 'string' ? doc.projectId : null,
      projectTitle: typeof doc.projectTitle === 'string' ? doc.projectTitle : null,
      parentId: typeof doc.noteId === 'string' ? doc.noteId : null,
      score,
      updatedAt: new Date(updatedAt),
    },
  };
}

/** The matched text, content before title; Typesense leaves it unescaped, so it is escaped here. */
function snippetOf(hit: Hit): string {
  const byField = new Map<string, string>();
  for (const h of hit.highlights ?? []) if (h.snippet) byField.set(h.field, h.snippet);
  for (const [field, h] of Object.entries(hit.highlight ?? {}))
    if (h?.snippet && !byField.has(field)) byField.set(field, h.snippet);
  const marked = ['content', 'title', 'name']
    .map((f) => byField.get(f))
    .find((s) => s !== undefined && s.includes(MARK_START));
  const fallback = typeof hit.document.title === 'string' ? hit.document.title : '';
  return snippetHtml(marked ?? fallback);
}

/** Requested sorts (nulls last), then type order, score, recency and id, as the PostgreSQL engine orders. */
function compareRanked(a: Ranked, b: Ranked, sorts: readonly SearchSort[]): number {
  for (let i = 0; i < sorts.length; i += 1) {
    const result = compareKeys(a.keys[i] ?? null, b.keys[i] ?? null, sorts[i]!.direction);
    if (result !== 0) return result;
  }
  if (a.order !== b.order) return a.order - b.order;
  if (a.score !== b.score) return b.score - a.score;
  if (a.updatedAt !== b.updatedAt) return b.updatedAt - a.updatedAt;
  return a.hit.id < b.hit.id ? -1 : a.hit.id > b.hit.id ? 1 : 0;
}

function compareKeys(a: string | number | null, b: string | number | null, direction: 'ASC' | 'DESC'): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const base =
    typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  return direction === 'DESC' ? -base : base;
}
