/**
 * The offline text representation of data points: TF-IDF over word unigrams and bigrams with
 * sublinear term frequency, plus character 4-grams inside words (so "refund" and "refunded", or a
 * typo, still share most of their features), each vector L2-normalised. It ships with the code and
 * needs nothing downloaded; the fitted model (terms and their idf) is small enough to keep with a
 * clustering, so points that arrive later are represented in the same space.
 */

/** A unit-length sparse vector: feature indexes ascending, with their weights. */
export interface SparseVec {
  idx: Int32Array;
  val: Float32Array;
}

/** Terms with their index and inverse document frequency. */
export interface TextModel {
  terms: Map<string, number>;
  idf: Float32Array;
}

// Common English function words carry no theme; kept short so domain words ("card") stay.
const STOPWORDS = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both but by can could did do does doing down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not of off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves im ive id dont cant wont didnt doesnt isnt wasnt arent hasnt havent please hi hello thanks thank also get got still yet one may might must shall us let lets`.split(
    /\s+/,
  ),
);

/** Char 4-grams weigh less than whole words: they help similar words meet, words decide. */
const CHAR_WEIGHT = 0.35;
const BIGRAM_WEIGHT = 1;

/** Lower-case words of letters and digits, apostrophes dropped ("don't" is "dont"). */
export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKC')
    .replace(/['’]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1 && !/^\d+$/.test(w));
}

/** Feature counts of one text: `w:word`, `b:word word`, `c:gram`. */
export function featuresOf(text: string): Map<string, number> {
  const out = new Map<string, number>();
  const add = (key: string) => out.set(key, (out.get(key) ?? 0) + 1);
  const content = wordsOf(text).filter((w) => !STOPWORDS.has(w));
  for (let i = 0; i < content.length; i++) {
    const w = content[i]!;
    add(`w:${w}`);
    if (i + 1 < content.length) add(`b:${w} ${content[i + 1]}`);
    const padded = `<${w}>`;
    if (padded.length > 5) for (let j = 0; j + 4 <= padded.length; j++) add(`c:${padded.slice(j, j + 4)}`);
  }
  return out;
}

const weightOf = (key: string): number =>
  key.startsWith('c:') ? CHAR_WEIGHT : key.startsWith('b:') ? BIGRAM_WEIGHT : 1;

export interface FitOptions {
  /** Features in fewer documents are dropped (noise, typos seen once). */
  minDf?: number;
  /** Features in more than this share of documents are dropped (say nothing about a theme). */
  maxDfRatio?: number;
  /** The most frequent features kept, bounding memory and the stored model. */
  maxTerms?: number;
}

/** Learns the vocabulary and idf of a corpus, given each document's features. */
export function fitModel(docs: Iterable<Map<string, number>>, opts: FitOptions = {}): TextModel {
  const df = new Map<string, number>();
  let n = 0;
  for (const doc of docs) {
    n++;
    for (const key of doc.keys()) df.set(key, (df.get(key) ?? 0) + 1);
  }
  const minDf = opts.minDf ?? 2;
  const maxDf = Math.max(minDf, Math.floor((opts.maxDfRatio ?? 0.5) * n));
  const kept = [...df]
    .filter(([, d]) => d >= minDf && d <= maxDf)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const top = kept.slice(0, opts.maxTerms ?? 30_000);
  const terms = new Map<string, number>();
  const idf = new Float32Array(top.length);
  top.forEach(([key, d], i) => {
    terms.set(key, i);
    idf[i] = Math.log((1 + n) / (1 + d)) + 1;
  });
  return { terms, idf };
}

/** A document in the model's space: sublinear tf times idf times the feature kind's weight, unit length. */
export function vectorize(model: TextModel, features: Map<string, number>): SparseVec {
  const pairs: Array<[number, number]> = [];
  for (const [key, count] of features) {
    const i = model.terms.get(key);
    if (i === undefined) continue;
    pairs.push([i, (1 + Math.log(count)) * model.idf[i]! * weightOf(key)]);
  }
  pairs.sort((a, b) => a[0] - b[0]);
  const norm = Math.sqrt(pairs.reduce((s, [, v]) => s + v * v, 0)) || 1;
  return { idx: Int32Array.from(pairs, (p) => p[0]), val: Float32Array.from(pairs, (p) => p[1] / norm) };
}

/** A dense unit vector (an embedding) as a sparse one, so one clustering serves both. */
export function denseToSparse(vector: readonly number[]): SparseVec {
  const norm = Math.sqrt(vector.reduce((s, v) => s + v * v, 0)) || 1;
  return { idx: Int32Array.from(vector.keys()), val: Float32Array.from(vector, (v) => v / norm) };
}

/** What a model keeps between runs: each term with its idf. */
export function serializeModel(model: TextModel): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, i] of model.terms) out[key] = Math.round(model.idf[i]! * 1000) / 1000;
  return out;
}

export function deserializeModel(stored: Record<string, number>): TextModel {
  const keys = Object.keys(stored);
  const terms = new Map(keys.map((k, i) => [k, i]));
  return { terms, idf: Float32Array.from(keys, (k) => stored[k]!) };
}

/** Feature keys a title may use: words and bigrams, never char grams. */
export const isPhrase = (key: string): boolean => key.startsWith('w:') || key.startsWith('b:');
export const phraseText = (key: string): string => key.slice(2);
