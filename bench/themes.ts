/**
 * Themes, measured rather than assumed:
 *  - quality: the BANKING77 test split (3,080 labelled customer messages, 77 intents, CC BY 4.0,
 *    bench/data/banking77) clustered offline by themes' pipeline and by TF-IDF with k-means in the
 *    same run, both at 77 clusters; NMI and ARI against the labels. Themes is also scored at the
 *    product's defaults (Standard amount and sensitivity), its outliers counted as one more group.
 *  - scale: theme clustering of 100,000 generated points offline, its time and peak memory.
 *
 * `tsx bench/themes.ts` runs it alone; BENCH_THEME_POINTS (default 100000) sizes the scale run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clusterTexts } from '../modules/channels/src/themes/cluster/cluster.ts';
import { rng } from '../modules/channels/src/themes/cluster/kmeans.ts';
import { tfidfKMeans } from './themes/baseline.ts';
import { ari, nmi } from './themes/metrics.ts';

export interface ThemeQuality {
  method: string;
  clusters: number;
  nmi: number;
  ari: number;
  ms: number;
  outliers?: number;
}

export interface ThemeBench {
  dataset: string;
  rows: number;
  labels: number;
  quality: ThemeQuality[];
  scale: {
    points: number;
    themes: number;
    outliers: number;
    seconds: number;
    peakRssMiB: number;
    heapGrowthMiB: number;
  };
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

/** Minimal CSV of two columns with quoted text, as the file is written. */
export function readBanking77(): Array<{ text: string; label: string }> {
  const raw = readFileSync(join(import.meta.dirname, 'data', 'banking77', 'test.csv'), 'utf8');
  const rows: Array<{ text: string; label: string }> = [];
  const re = /^(?:"((?:[^"]|"")*)"|([^,]*)),([^,\r\n]+)\r?$/gm;
  for (const m of raw.matchAll(re)) {
    const text = m[1] !== undefined ? m[1].replaceAll('""', '"') : m[2]!;
    if (text === 'text' && m[3] === 'category') continue;
    rows.push({ text, label: m[3]! });
  }
  return rows;
}

function quality(): Pick<ThemeBench, 'dataset' | 'rows' | 'labels' | 'quality'> {
  const rows = readBanking77();
  const texts = rows.map((r) => r.text);
  const labels = rows.map((r) => r.label);
  const k = new Set(labels).size;
  const out: ThemeQuality[] = [];
  const timed = <T>(f: () => T): [T, number] => {
    const t = performance.now();
    const v = f();
    return [v, Math.round(performance.now() - t)];
  };
  const [base, baseMs] = timed(() => tfidfKMeans(texts, k));
  out.push({
    method: 'TF-IDF + k-means',
    clusters: k,
    nmi: r3(nmi(labels, base)),
    ari: r3(ari(labels, base)),
    ms: baseMs,
  });
  const asGroups = (res: ReturnType<typeof clusterTexts>) => {
    const g = new Array<number>(texts.length).fill(-1);
    res.themes.forEach((t, i) => t.members.forEach((m) => (g[m] = i)));
    return g;
  };
  // Very relaxed keeps nearly every point, which is what the labels' partition compares with.
  const [all, allMs] = timed(() => clusterTexts({ texts, sensitivity: 5, amountPercent: null, clusters: k }));
  const g1 = asGroups(all);
  out.push({
    method: 'Themes (Very relaxed)',
    clusters: all.themes.length,
    nmi: r3(nmi(labels, g1)),
    ari: r3(ari(labels, g1)),
    ms: allMs,
    outliers: all.outliers.length,
  });
  const [std, stdMs] = timed(() => clusterTexts({ texts, sensitivity: 3, amountPercent: null, clusters: k }));
  const g2 = asGroups(std);
  out.push({
    method: 'Themes (Standard sensitivity)',
    clusters: std.themes.length,
    nmi: r3(nmi(labels, g2)),
    ari: r3(ari(labels, g2)),
    ms: stdMs,
    outliers: std.outliers.length,
  });
  const inliers = g2.map((g, i) => (g >= 0 ? i : -1)).filter((i) => i >= 0);
  out.push({
    method: 'Themes (Standard, themed points only)',
    clusters: std.themes.length,
    nmi: r3(
      nmi(
        inliers.map((i) => labels[i]!),
        inliers.map((i) => g2[i]!),
      ),
    ),
    ari: r3(
      ari(
        inliers.map((i) => labels[i]!),
        inliers.map((i) => g2[i]!),
      ),
    ),
    ms: stdMs,
  });
  return { dataset: 'BANKING77 test (CC BY 4.0)', rows: rows.length, labels: k, quality: out };
}

/** Short feedback from 60 made-up subjects, each with its own words, mixed with shared filler. */
export function generatePoints(count: number, seed = 11): string[] {
  const random = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const objects = [
    'export',
    'invoice',
    'dashboard',
    'login',
    'search',
    'upload',
    'billing',
    'report',
    'calendar',
    'mobile app',
    'password',
    'notification',
    'integration',
    'sync',
    'import',
    'chart',
    'filter',
    'team invite',
    'pricing',
    'onboarding',
  ];
  const problems = [
    'is too slow',
    'keeps failing',
    'is confusing',
    'times out',
    'crashed again',
    'is missing data',
    'looks broken',
    'needs a dark mode',
    'should support CSV',
    'lost my changes',
  ];
  const fillers = [
    'honestly',
    'every day',
    'since the update',
    'on large projects',
    'for our team',
    'this week',
    'again and again',
    'when I try',
  ];
  const subjects = Array.from(
    { length: 60 },
    (_, i) => [objects[i % objects.length]!, problems[Math.floor(i / 6) % problems.length]!] as const,
  );
  return Array.from({ length: count }, () => {
    const [o, p] = pick(subjects);
    return random() < 0.05 ? `${pick(fillers)} ${pick(fillers)}` : `The ${o} ${p} ${pick(fillers)}`;
  });
}

function scale(points: number): ThemeBench['scale'] {
  const texts = generatePoints(points);
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t = performance.now();
  // The work runs in one synchronous call, so samples come from the progress callback too.
  const res = clusterTexts({
    texts,
    sensitivity: 3,
    amountPercent: 10,
    onProgress: () => (peak = Math.max(peak, process.memoryUsage().rss)),
  });
  const seconds = (performance.now() - t) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
  return {
    points,
    themes: res.themes.length,
    outliers: res.outliers.length,
    seconds: Math.round(seconds * 10) / 10,
    peakRssMiB: Math.round(peak / 2 ** 20),
    heapGrowthMiB: Math.round(heapGrowth / 2 ** 20),
  };
}

export function benchThemes(points = Number(process.env.BENCH_THEME_POINTS ?? 100_000)): ThemeBench {
  return { ...quality(), scale: scale(points) };
}

export function themesTable(b: ThemeBench): string[] {
  return [
    `Theme quality on ${b.dataset}, ${b.rows} messages, ${b.labels} labels:`,
    ...b.quality.map(
      (q) =>
        `  ${q.method.padEnd(40)} clusters ${String(q.clusters).padStart(3)}  NMI ${q.nmi.toFixed(3)}  ARI ${q.ari.toFixed(3)}  ${q.ms} ms${q.outliers === undefined ? '' : `  outliers ${q.outliers}`}`,
    ),
    `Theme clustering of ${b.scale.points.toLocaleString('en')} points, offline: ${b.scale.seconds} s, peak RSS ${b.scale.peakRssMiB} MiB, ${b.scale.themes} themes, ${b.scale.outliers} outliers`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const b = benchThemes();
  for (const line of themesTable(b)) console.log(line);
}
