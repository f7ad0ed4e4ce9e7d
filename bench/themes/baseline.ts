/**
 * The reference point themes are measured against: TF-IDF over words (raw term counts, no
 * bigrams, no character grams, no stop words removed) and Lloyd's k-means with Euclidean distance
 * from randomly chosen starting points, as a textbook pipeline does it.
 */
import { rng } from '../../modules/channels/src/themes/cluster/kmeans.ts';
import { wordsOf } from '../../modules/channels/src/themes/cluster/text.ts';

export function tfidfKMeans(texts: readonly string[], k: number, seed = 7, iterations = 30): number[] {
  const docs = texts.map(wordsOf);
  const vocab = new Map<string, number>();
  const df: number[] = [];
  for (const d of docs) {
    for (const w of new Set(d)) {
      if (!vocab.has(w)) {
        vocab.set(w, vocab.size);
        df.push(0);
      }
      df[vocab.get(w)!]!++;
    }
  }
  const n = texts.length;
  const dim = vocab.size;
  const vecs = docs.map((d) => {
    const tf = new Map<number, number>();
    for (const w of d) tf.set(vocab.get(w)!, (tf.get(vocab.get(w)!) ?? 0) + 1);
    const idx = [...tf.keys()];
    const val = idx.map((i) => tf.get(i)! * (Math.log((1 + n) / (1 + df[i]!)) + 1));
    const norm = Math.sqrt(val.reduce((s, v) => s + v * v, 0)) || 1;
    return { idx, val: val.map((v) => v / norm) };
  });
  const random = rng(seed);
  const centroids: Float64Array[] = [];
  const picked = new Set<number>();
  while (centroids.length < Math.min(k, n)) {
    const i = Math.floor(random() * n);
    if (picked.has(i)) continue;
    picked.add(i);
    const c = new Float64Array(dim);
    vecs[i]!.idx.forEach((j, x) => (c[j] = vecs[i]!.val[x]!));
    centroids.push(c);
  }
  const assign = new Array<number>(n).fill(0);
  for (let it = 0; it < iterations; it++) {
    const norms = centroids.map((c) => c.reduce((s, v) => s + v * v, 0));
    let changed = 0;
    vecs.forEach((v, i) => {
      let best = 0;
      let bestD = Infinity;
      centroids.forEach((c, ci) => {
        // |v - c|² = |v|² - 2 v·c + |c|², with |v| = 1.
        let d = 1 + norms[ci]!;
        for (let x = 0; x < v.idx.length; x++) d -= 2 * v.val[x]! * c[v.idx[x]!]!;
        if (d < bestD) {
          bestD = d;
          best = ci;
        }
      });
      if (assign[i] !== best) changed++;
      assign[i] = best;
    });
    const sums = centroids.map(() => new Float64Array(dim));
    const sizes = new Array<number>(centroids.length).fill(0);
    vecs.forEach((v, i) => {
      sizes[assign[i]!]!++;
      v.idx.forEach((j, x) => (sums[assign[i]!]![j]! += v.val[x]!));
    });
    sums.forEach((s, ci) => {
      if (sizes[ci]) {
        for (let j = 0; j < dim; j++) s[j]! /= sizes[ci]!;
        centroids[ci] = s;
      }
    });
    if (!changed) break;
  }
  return assign;
}
