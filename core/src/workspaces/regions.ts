/** Where a workspace's data lives (002 §3 Regions). */
export const REGIONS = [
  { code: 'US_A', cloudRegion: 'us-east-1', place: 'North Virginia', group: 'United States' },
  { code: 'US_B', cloudRegion: 'us-east-2', place: 'Ohio', group: 'United States' },
  { code: 'EU_A', cloudRegion: 'eu-west-1', place: 'Ireland', group: 'Europe' },
  { code: 'AU_A', cloudRegion: 'ap-southeast-2', place: 'Sydney', group: 'Australia' },
] as const;

export type RegionCode = (typeof REGIONS)[number]['code'];
export type RegionInfo = (typeof REGIONS)[number];

export const REGION_CODES = REGIONS.map((r) => r.code) as [RegionCode, ...RegionCode[]];

export const DEFAULT_REGION: RegionCode = 'US_B';
