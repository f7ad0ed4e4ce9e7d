import { dot, sphericalKMeans } from './kmeans.ts';
import { CLUSTERING, clusterCount, outlierDeviations } from './params.ts';
import {
  denseToSparse,
  featuresOf,
  fitModel,
  isPhrase,
  phraseText,
  serializeModel,
  vectorize,
  type SparseVec,
  type TextModel,
} from './text.ts';

/**
 * Groups texts into themes and themes into topics, the whole pipeline without a database: fit the
 * text model (or take embeddings), choose the number of themes from the amount (002 §9), cluster,
 * cut outliers by sensitivity, dissolve themes under the minimum size, and name each theme by its
 * most distinctive phrases.
 */

/** Where a theme sits, kept so later points can join it without clustering again. */
export type ThemeCentroid =
  | { kind: 'terms'; terms: Record<string, number> }
  | { kind: 'embedding'; model: string; vector: number[] };

export interface ClusteredTheme {
  /** Indexes of the input texts. */
  members: number[];
  /** Similarity of each member to the theme's centre, in `members` order. */
  similarities: number[];
  centroid: ThemeCentroid;
  /** Below this similarity a newcomer is an outlier rather than a member. */
  minSimilarity: number;
  phrases: string[];
  title: string;
}

export interface ClusteredTopic {
  /** Indexes into `themes`. */
  themes: number[];
  title: string;
}

export interface ClusterResult {
  themes: ClusteredTheme[];
  topics: ClusteredTopic[];
  outliers: number[];
  /** The offline text model (terms with idf), for representing later points. */
  model: Record<string, number>;
}

export interface ClusterInput {
  texts: readonly string[];
  /** Embeddings of the texts from the configured model, used instead of the text model. */
  embeddings?: { model: string; vectors: ReadonlyArray<readonly number[]> } | null;
  sensitivity: number;
  amountPercent: number | null;
  seed?: number;
  /** A fixed number of themes instead of the amount rule (the quality bench compares at the labels' count). */
  clusters?: number;
  onProgress?: (fraction: number) => void;
}

/** Terms a stored centroid keeps: enough to place newcomers, small enough to store per theme. */
const CENTROID_TERMS = 400;

export function representTexts(texts: readonly string[]): { model: TextModel; vecs: SparseVec[]; keys: string[] } {
  const model = fitModel(
    (function* () {
      for (const t of texts) yield featuresOf(t);
    })(),
  );
  const vecs = texts.map((t) => vectorize(model, featuresOf(t)));
  const keys = new Array<string>(model.terms.size);
  for (const [k, i] of model.terms) keys[i] = k;
  return { model, vecs, keys };
}

/** Phrases far more common in these points than in the whole channel, best first. */
export function distinctivePhrases(
  vecs: readonly SparseVec[],
  members: readonly number[],
  keys: readonly string[],
  overall: Int32Array,
  total: number,
  count = 3,
): string[] {
  const inside = new Map<number, number>();
  for (const m of members)
    for (const i of vecs[m]!.idx) if (isPhrase(keys[i]!)) inside.set(i, (inside.get(i) ?? 0) + 1);
  const scored: Array<{ key: string; score: number }> = [];
  for (const [i, c] of inside) {
    if (c < 2) continue;
    const p = c / members.length;
    const q = overall[i]! / total;
    scored.push({ key: keys[i]!, score: p * Math.log(p / q) });
  }
  scored.sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : 1));
  const picked: string[] = [];
  const used = new Set<string>();
  for (const s of scored) {
    // A bigram that contains the best word says more than the word alone.
    const text = phraseText(s.key);
    const words = text.split(' ');
    if (words.some((w) => used.has(w))) continue;
    const better = s.key.startsWith('w:')
      ? scored.find(
          (b) =>
            b.key.startsWith('b:') &&
            b.score >= s.score * 0.5 &&
            phraseText(b.key).split(' ').includes(text) &&
            !phraseText(b.key)
              .split(' ')
              .some((w) => used.has(w)),
        )
      : undefined;
    const chosen = better ? phraseText(better.key) : text;
    picked.push(chosen);
    for (const w of chosen.split(' ')) used.add(w);
    if (picked.length >= count) break;
  }
  return picked;
}

export function titleOf(phrases: readonly string[], fallback: string): string {
  if (!phrases.length) return fallback;
  const [first, ...rest] = phrases;
  return [first!.charAt(0).toUpperCase() + first!.slice(1), ...rest.slice(0, 1)].join(', ').slice(0, 300);
}

function centroidTerms(centroid: Float32Array, keys: readonly string[]): Record<string, number> {
  const top: Array<[number, number]> = [];
  centroid.forEach((v, i) => v > 0 && top.push([i, v]));
  top.sort((a, b) => b[1] - a[1]);
  const out: Record<string, number> = {};
  for (const [i, v] of top.slice(0, CENTROID_TERMS)) out[keys[i]!] = Math.round(v * 1e5) / 1e5;
  return out;
}

export function clusterTexts(input: ClusterInput): ClusterResult {
  const n = input.texts.length;
  const { model, vecs: textVecs, keys } = representTexts(input.texts);
  input.onProgress?.(0.1);
  const k = input.clusters ?? clusterCount(n, input.amountPercent);
  const empty: ClusterResult = {
    themes: [],
    topics: [],
    outliers: [...input.texts.keys()],
    model: serializeModel(model),
  };
  if (k === 0) return empty;
  const embedded = input.embeddings ?? null;
  const vecs = embedded ? embedded.vectors.map((v) => denseToSparse(v)) : textVecs;
  const dim = embedded ? (embedded.vectors[0]?.length ?? 0) : model.terms.size;
  // Points with no known words cannot be placed; they are outliers from the start.
  const usable = [...vecs.keys()].filter((i) => vecs[i]!.idx.length > 0);
  if (usable.length < CLUSTERING.minItems || dim === 0) return empty;
  const kk = input.clusters
    ? Math.min(k, usable.length)
    : Math.min(k, clusterCount(usable.length, input.amountPercent));
  const run = sphericalKMeans(
    usable.map((i) => vecs[i]!),
    dim,
    kk,
    {
      seed: input.seed ?? 7,
      maxIterations: usable.length > 20_000 ? 15 : 30,
      restarts: usable.length <= 200 ? 30 : usable.length <= 1_000 ? 10 : usable.length <= 5_000 ? 3 : 1,
      onIteration: (it) => input.onProgress?.(0.1 + Math.min(0.7, (it + 1) * 0.03)),
    },
  );

  // Members per cluster, then the outlier cut by each cluster's own spread.
  const groups = run.centroids.map(() => [] as number[]);
  usable.forEach((_point, u) => groups[run.assign[u]!]!.push(u));
  const z = outlierDeviations(input.sensitivity);
  const cuts = groups.map((g) => {
    if (!g.length) return 1;
    const sims = g.map((u) => run.sims[u]!);
    const mean = sims.reduce((a, b) => a + b, 0) / sims.length;
    const sd = Math.sqrt(sims.reduce((a, b) => a + (b - mean) ** 2, 0) / sims.length);
    return Math.max(0.01, mean - z * sd);
  });
  // Themes under the minimum size dissolve; their points try the others.
  const alive = groups.map((g, c) => g.filter((u) => run.sims[u]! >= cuts[c]!).length >= CLUSTERING.minItems);
  const memberOf = new Int32Array(usable.length).fill(-1);
  const simOf = new Float32Array(usable.length);
  usable.forEach((point, u) => {
    let c = run.assign[u]!;
    let s = run.sims[u]!;
    if (!alive[c]) {
      c = -1;
      for (let o = 0; o < run.centroids.length; o++) {
        if (!alive[o]) continue;
        const so = dot(vecs[point]!, run.centroids[o]!);
        if (c < 0 || so > s) {
          c = o;
          s = so;
        }
      }
    }
    if (c >= 0 && s >= cuts[c]!) {
      memberOf[u] = c;
      simOf[u] = s;
    }
  });
  input.onProgress?.(0.9);

  const overall = new Int32Array(keys.length);
  for (const v of textVecs) for (const i of v.idx) overall[i]!++;
  const themes: ClusteredTheme[] = [];
  const clusterIndex: number[] = [];
  for (let c = 0; c < run.centroids.length; c++) {
    if (!alive[c]) continue;
    const us = [...memberOf.keys()].filter((u) => memberOf[u] === c);
    if (us.length < CLUSTERING.minItems) continue;
    const members = us.map((u) => usable[u]!);
    const phrases = distinctivePhrases(textVecs, members, keys, overall, n);
    themes.push({
      members,
      similarities: us.map((u) => Math.round(simOf[u]! * 1e4) / 1e4),
      centroid: embedded
        ? {
            kind: 'embedding',
            model: embedded.model,
            vector: Array.from(run.centroids[c]!, (v) => Math.round(v * 1e6) / 1e6),
          }
        : { kind: 'terms', terms: centroidTerms(run.centroids[c]!, keys) },
      minSimilarity: Math.round(cuts[c]! * 1e4) / 1e4,
      phrases,
      title: titleOf(phrases, `Theme ${themes.length + 1}`),
    });
    clusterIndex.push(c);
  }
  const inTheme = new Set(themes.flatMap((t) => t.members));
  const outliers = [...input.texts.keys()].filter((i) => !inTheme.has(i));

  // Topics group themes whose centres are close: a quarter as many topics as themes.
  const topics: ClusteredTopic[] = [];
  if (themes.length >= 4) {
    const centres = clusterIndex.map((c) => {
      const v = run.centroids[c]!;
      const idx: number[] = [];
      const val: number[] = [];
      v.forEach((x, i) => x !== 0 && (idx.push(i), val.push(x)));
      return { idx: Int32Array.from(idx), val: Float32Array.from(val) };
    });
    const grouped = sphericalKMeans(centres, dim, Math.max(2, Math.round(themes.length / 4)), {
      seed: (input.seed ?? 7) + 1,
      restarts: 3,
    });
    const byTopic = new Map<number, number[]>();
    grouped.assign.forEach((t, i) => byTopic.set(t, [...(byTopic.get(t) ?? []), i]));
    for (const members of byTopic.values()) {
      const points = members.flatMap((t) => themes[t]!.members);
      topics.push({
        themes: members,
        title: titleOf(distinctivePhrases(textVecs, points, keys, overall, n, 2), `Topic ${topics.length + 1}`),
      });
    }
  }
  input.onProgress?.(1);
  return { themes, topics, outliers, model: serializeModel(model) };
}

/**
 * Places later points: the most similar theme that would keep them, or none (an outlier). Built
 * once per batch from the stored model and the themes' stored centres.
 */
export function themePlacer(
  model: TextModel | null,
  themes: ReadonlyArray<{ centroid: ThemeCentroid; minSimilarity: number }>,
): (point: { text: string; embedding?: readonly number[] | null }) => { theme: number; similarity: number } | null {
  const keys = new Map<number, string>();
  if (model) for (const [k, i] of model.terms) keys.set(i, k);
  const dense = themes.map((t) => (t.centroid.kind === 'embedding' ? Float32Array.from(t.centroid.vector) : null));
  return (point) => {
    let best: { theme: number; similarity: number } | null = null;
    const weights = new Map<string, number>();
    if (model) {
      const vec = vectorize(model, featuresOf(point.text));
      vec.idx.forEach((i, j) => weights.set(keys.get(i)!, vec.val[j]!));
    }
    const embedded = point.embedding ? denseToSparse(point.embedding) : null;
    themes.forEach((t, index) => {
      let s = 0;
      if (t.centroid.kind === 'terms') {
        for (const [k, w] of Object.entries(t.centroid.terms)) s += (weights.get(k) ?? 0) * w;
      } else if (embedded) s = dot(embedded, dense[index]!);
      else return;
      if (s > 0 && s >= t.minSimilarity && (!best || s > best.similarity)) best = { theme: index, similarity: s };
    });
    return best;
  };
}
