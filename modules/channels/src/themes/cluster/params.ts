/**
 * The clustering parameters of 002 §9: sensitivity (how far from its theme's centre a point may
 * be before it is an outlier) and amount (how many themes, as a percent of the points).
 */

export const SENSITIVITIES = [
  { value: 5, label: 'Very relaxed' },
  { value: 4, label: 'Relaxed' },
  { value: 3, label: 'Standard' },
  { value: 2, label: 'Strict' },
  { value: 1, label: 'Very strict' },
] as const;

export const AMOUNTS = [
  { value: 3, label: 'Least' },
  { value: 5, label: 'Less' },
  { value: 10, label: 'Standard' },
  { value: 15, label: 'More' },
  { value: 25, label: 'Most' },
] as const;

export const CLUSTERING = {
  minClusters: 2,
  maxClusters: 50,
  /** Themes made when no amount is chosen. */
  fallbackClusters: 15,
  /** A channel with fewer points is not clustered, and no theme keeps fewer. */
  minItems: 5,
  /** Fewer points than this make 2 themes; this many or more make at least 3. */
  twoOrThreeSplit: 20,
  defaultSensitivity: 3,
  defaultAmount: 10,
} as const;

export type Sensitivity = (typeof SENSITIVITIES)[number]['value'];
export type AmountPercent = (typeof AMOUNTS)[number]['value'];

/** How many themes `items` points make (002 §9); 0 below the minimum threshold. */
export function clusterCount(items: number, amountPercent: number | null): number {
  if (items < CLUSTERING.minItems) return 0;
  if (items < CLUSTERING.twoOrThreeSplit) return CLUSTERING.minClusters;
  const wanted = amountPercent === null ? CLUSTERING.fallbackClusters : Math.round((items * amountPercent) / 100);
  // Every theme needs room for the minimum number of points.
  const room = Math.max(3, Math.floor(items / CLUSTERING.minItems));
  return Math.min(CLUSTERING.maxClusters, room, Math.max(3, wanted));
}

/**
 * Standard deviations below a theme's mean similarity at which a point becomes an outlier: Very
 * strict (1) cuts close to the mean, Very relaxed (5) keeps almost every point.
 */
export function outlierDeviations(sensitivity: number): number {
  return [0.5, 1, 1.5, 2, 3][Math.min(5, Math.max(1, sensitivity)) - 1]!;
}
