import type { SparseVec } from './text.ts';

/**
 * Spherical k-means (cosine similarity on unit vectors) seeded with k-means++: short texts share
 * few words, so cosine on their TF-IDF vectors separates them far better than Euclidean k-means on
 * raw counts, and k-means++ seeding keeps small themes from being swallowed at the start.
 */

/** A deterministic generator, so one channel clusters the same way every time. */
export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

export function dot(v: SparseVec, dense: Float32Array): number {
  let s = 0;
  for (let i = 0; i < v.idx.length; i++) s += v.val[i]! * dense[v.idx[i]!]!;
  return s;
}

function normalize(c: Float32Array): void {
  let s = 0;
  for (let i = 0; i < c.length; i++) s += c[i]! * c[i]!;
  const n = Math.sqrt(s);
  if (n > 0) for (let i = 0; i < c.length; i++) c[i]! /= n;
}

function scatter(v: SparseVec, dim: number): Float32Array {
  const c = new Float32Array(dim);
  for (let i = 0; i < v.idx.length; i++) c[v.idx[i]!] = v.val[i]!;
  return c;
}

export interface KMeansResult {
  assign: Int32Array;
  /** Each point's cosine similarity to its centroid. */
  sims: Float32Array;
  centroids: Float32Array[];
  /** Sum of similarities: higher is tighter. */
  objective: number;
}

export interface KMeansOptions {
  seed?: number;
  maxIterations?: number;
  /** Runs from different seeds; the tightest wins. */
  restarts?: number;
  onIteration?: (iteration: number) => void;
}

/**
 * Greedy k-means++: each new centre is the best of a few candidates drawn in proportion to their
 * squared distance, the one that most lowers the total distance (as scikit-learn seeds), which
 * keeps two centres from landing in one group far more often than a single draw does.
 */
function seedCentroids(vecs: readonly SparseVec[], dim: number, k: number, random: () => number): Float32Array[] {
  const n = vecs.length;
  // Large sets seed with single draws: their groups are big enough that one draw rarely doubles up.
  const trials = n > 20_000 ? 1 : 2 + Math.floor(Math.log(k));
  const best = new Float32Array(n).fill(-1);
  const centroids: Float32Array[] = [];
  const take = (c: Float32Array) => {
    centroids.push(c);
    for (let i = 0; i < n; i++) {
      const s = dot(vecs[i]!, c);
      if (s > best[i]!) best[i] = s;
    }
  };
  take(scatter(vecs[Math.floor(random() * n)]!, dim));
  const weights = new Float64Array(n);
  while (centroids.length < k) {
    let total = 0;
    for (let i = 0; i < n; i++) {
      const d = 1 - best[i]!;
      weights[i] = d * d;
      total += weights[i]!;
    }
    let chosen: Float32Array | null = null;
    let chosenCost = Infinity;
    for (let t = 0; t < trials; t++) {
      let pick = Math.floor(random() * n);
      if (total > 0) {
        let r = random() * total;
        for (pick = 0; pick < n - 1; pick++) {
          r -= weights[pick]!;
          if (r <= 0) break;
        }
      }
      const candidate = scatter(vecs[pick]!, dim);
      let cost = 0;
      for (let i = 0; i < n; i++) {
        const d = 1 - Math.max(best[i]!, dot(vecs[i]!, candidate));
        cost += d * d;
      }
      if (cost < chosenCost) {
        chosenCost = cost;
        chosen = candidate;
      }
    }
    take(chosen!);
  }
  return centroids;
}

function runOnce(
  vecs: readonly SparseVec[],
  dim: number,
  k: number,
  random: () => number,
  opts: KMeansOptions,
): KMeansResult {
  const n = vecs.length;
  let centroids: Float32Array[] = seedCentroids(vecs, dim, k, random);
  const assign = new Int32Array(n).fill(-1);
  const sims = new Float32Array(n);
  const maxIterations = opts.maxIterations ?? 30;
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    let changed = 0;
    for (let i = 0; i < n; i++) {
      let bestC = 0;
      let bestS = -Infinity;
      for (let c = 0; c < k; c++) {
        const s = dot(vecs[i]!, centroids[c]!);
        if (s > bestS) {
          bestS = s;
          bestC = c;
        }
      }
      if (assign[i] !== bestC) changed++;
      assign[i] = bestC;
      sims[i] = bestS;
    }
    opts.onIteration?.(iteration);
    const next: Float32Array[] = Array.from({ length: k }, () => new Float32Array(dim));
    const sizes = new Int32Array(k);
    for (let i = 0; i < n; i++) {
      const c = next[assign[i]!]!;
      const v = vecs[i]!;
      sizes[assign[i]!]!++;
      for (let j = 0; j < v.idx.length; j++) c[v.idx[j]!]! += v.val[j]!;
    }
    // An emptied cluster restarts at the point its cluster fits worst.
    for (let c = 0; c < k; c++) {
      if (sizes[c]) continue;
      let worst = 0;
      for (let i = 1; i < n; i++) if (sims[i]! < sims[worst]!) worst = i;
      next[c] = scatter(vecs[worst]!, dim);
      sims[worst] = 1;
    }
    next.forEach(normalize);
    centroids = next;
    // Small sets run to a fixed point; large ones stop once under 0.1% of points still move.
    if (changed === 0 || (n > 10_000 && changed <= n * 0.001)) break;
  }
  let objective = 0;
  for (let i = 0; i < n; i++) {
    sims[i] = dot(vecs[i]!, centroids[assign[i]!]!);
    objective += sims[i]!;
  }
  return { assign, sims, centroids, objective };
}

export function sphericalKMeans(
  vecs: readonly SparseVec[],
  dim: number,
  k: number,
  opts: KMeansOptions = {},
): KMeansResult {
  const random = rng(opts.seed ?? 42);
  let best: KMeansResult | null = null;
  for (let r = 0; r < Math.max(1, opts.restarts ?? 1); r++) {
    const run = runOnce(vecs, dim, Math.min(k, vecs.length), random, opts);
    if (!best || run.objective > best.objective) best = run;
  }
  return best!;
}
