import type { Knex } from 'knex';

/**
 * The channel page's text filter, bounded like search's: it never reads every point of a large
 * channel. A filter's words are matched through the data points' search vector (each word as a
 * prefix, so "tag" finds "tagging"). First the newest points of the channel (in the date range)
 * are sampled: how many of them match says whether the filter is common or rare.
 *
 * - Common (the sample says there are clearly more than `exactCountLimit` matches): the page walks
 *   the (channel, created_at, id) index newest first and stops at the page's end; the count is the
 *   sample's share of the range's points, an estimate shown as "about 410,000".
 * - Otherwise pages sampled across the table (TABLESAMPLE, as search estimates) say whether older
 *   points hold many matches: if so, the count is that estimate; if not, the matches are counted
 *   through the text index with the planner held to bitmap scans, up to `exactCountLimit` + 1
 *   (exact at or below it, and the page is the newest of them). Past the limit the page is a walk
 *   of the newest `walkBudget` points when that fills it, else the matches sorted.
 */
export const TEXT_FILTER: { exactCountLimit: number; sampleRows: number; walkBudget: number; estimateRows: number } = {
  exactCountLimit: 5000,
  sampleRows: 2000,
  /** Points a walk of the index may read before the matches are sorted instead. */
  walkBudget: 20_000,
  /** About how many of the channel's points an estimate samples across the table. */
  estimateRows: 3000,
};

const PIECES = /[^\p{L}\p{N}]+/u;

/** The words of a filter (letters and digits), at most 20 of them. */
export const filterWords = (text: string): string[] => text.split(PIECES).filter(Boolean).slice(0, 20);

/** Each word a prefix, all required. The words are quoted before they reach to_tsquery, so none is read as tsquery syntax. */
export function matchSql(words: readonly string[]): { sql: string; bindings: string[] } {
  return {
    sql: `search_vector @@ (${words.map(() => `to_tsquery('fb_search', quote_literal(?) || ':*')`).join(' && ')})`,
    bindings: [...words],
  };
}

/** An estimate as people read one: two significant digits ("about 410,000"), never at or below the exact limit. */
export function roundedEstimate(estimate: number, exactCountLimit: number): number {
  const value = Math.max(estimate, exactCountLimit + 1);
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(value)) - 1);
  const rounded = Math.round(value / unit) * unit;
  return rounded > exactCountLimit ? rounded : Math.ceil(value / unit) * unit;
}

/** The planner's scan kinds held for one statement: bitmap scans only (so a LIMIT stops reading the matches), or the index walk only. */
const BITMAP_SCANS = {
  enable_seqscan: 'off',
  enable_indexscan: 'off',
  enable_indexonlyscan: 'off',
  enable_bitmapscan: 'on',
};
const INDEX_WALK = {
  enable_seqscan: 'off',
  enable_indexscan: 'on',
  enable_indexonlyscan: 'on',
  enable_bitmapscan: 'off',
};

async function planned<T>(trx: Knex.Transaction, settings: Record<string, string>, body: () => Promise<T>): Promise<T> {
  const set = (on: boolean) =>
    trx.raw(
      `select ${Object.entries(settings)
        .map(([k, v]) => `set_config('${k}', '${on ? v : 'on'}', true)`)
        .join(', ')}`,
    );
  await set(true);
  try {
    return await body();
  } finally {
    await set(false);
  }
}

export interface FilteredPage<Row> {
  rows: Row[];
  totalCount: number;
  isEstimate: boolean;
}

export interface FilterQuery {
  /** The channel and date range (no cursor). */
  scoped: () => Knex.QueryBuilder;
  /** Adds the page's cursor condition. */
  after: (q: Knex.QueryBuilder) => Knex.QueryBuilder;
  columns: readonly string[];
  /** Rows to read: the page and one more (to tell whether another page follows). */
  limit: number;
  /** How many points the range holds (from the daily counters, possibly approximate at the edges). */
  inRange: () => Promise<number>;
}

const NEWEST_FIRST = [
  { column: 'created_at', order: 'desc' },
  { column: 'id', order: 'desc' },
] as const;

/** One page, newest first, of the points `q` selects that match `words`, and their count. */
export async function filteredPage<Row>(
  trx: Knex.Transaction,
  words: readonly string[],
  q: FilterQuery,
): Promise<FilteredPage<Row>> {
  const { exactCountLimit, sampleRows, walkBudget, estimateRows } = TEXT_FILTER;
  const match = matchSql(words);
  const filtered = () => q.scoped().whereRaw(match.sql, match.bindings);
  const walk = async (): Promise<Row[]> =>
    (await q
      .after(filtered())
      .orderBy([...NEWEST_FIRST])
      .limit(q.limit)
      .select([...q.columns])) as Row[];
  const sample = (await trx
    .from(
      q
        .scoped()
        .orderBy([...NEWEST_FIRST])
        .limit(sampleRows)
        .select('search_vector')
        .as('s'),
    )
    .first(
      trx.raw('count(*)::int as seen'),
      trx.raw(`(count(*) filter (where ${match.sql}))::int as hits`, match.bindings),
    )) as { seen: number; hits: number };
  const density = sample.seen ? sample.hits / sample.seen : 0;

  // The sample is the whole range: it counted every match.
  if (sample.seen < sampleRows)
    return { rows: sample.hits ? await walk() : [], totalCount: sample.hits, isEstimate: false };
  const points = await q.inRange();
  if (density * points > 2 * exactCountLimit)
    return {
      rows: await planned(trx, INDEX_WALK, walk),
      totalCount: roundedEstimate(Math.min(points, density * points), exactCountLimit),
      isEstimate: true,
    };

  // The newest points hold few matches: pages sampled across the table (as search estimates) say
  // whether older ones hold many. If so, the count is that estimate; if not, the matches are
  // counted through the text index up to the limit.
  const percent = Math.min(100, Math.max(0.01, (100 * estimateRows) / Math.max(points, 1)));
  const spread = (await q
    .scoped()
    .from(trx.raw('channel_datapoints tablesample system (?)', [percent]))
    .first(
      trx.raw('count(*)::int as seen'),
      trx.raw(`(count(*) filter (where ${match.sql}))::int as hits`, match.bindings),
    )) as { seen: number; hits: number };
  const share = spread.seen ? spread.hits / spread.seen : density;
  if (share * points <= 2 * exactCountLimit) {
    const [{ n }] = (await planned(trx, BITMAP_SCANS, () =>
      trx
        .from(
          filtered()
            .limit(exactCountLimit + 1)
            .select(trx.raw('1'))
            .as('c'),
        )
        .select(trx.raw('count(*)::int as n')),
    )) as [{ n: number }];
    if (n <= exactCountLimit)
      return { rows: n ? await planned(trx, BITMAP_SCANS, walk) : [], totalCount: n, isEstimate: false };
  }
  const totalCount = roundedEstimate(Math.min(points, share * points), exactCountLimit);
  // The page: a walk of the newest `walkBudget` points (from the cursor) when that fills it, else the matches sorted.
  const newest = q
    .after(q.scoped())
    .orderBy([...NEWEST_FIRST])
    .limit(walkBudget)
    .select([...q.columns, 'search_vector']);
  const near = (await planned(trx, INDEX_WALK, async () =>
    trx
      .from(newest.as('n'))
      .whereRaw(match.sql, match.bindings)
      .orderBy([...NEWEST_FIRST])
      .limit(q.limit)
      .select([...q.columns]),
  )) as Row[];
  if (near.length >= q.limit) return { rows: near, totalCount, isEstimate: true };
  return { rows: await planned(trx, BITMAP_SCANS, walk), totalCount, isEstimate: true };
}
