import type { Region } from '../api/operations.ts';

/** Regions of 002 §3; US_B is the default. Apart from the form, so the home page can name one. */
export const REGIONS: Array<{ value: Region; label: string; group: string }> = [
  { value: 'US_A', label: 'North Virginia (us-east-1)', group: 'United States' },
  { value: 'US_B', label: 'Ohio (us-east-2)', group: 'United States' },
  { value: 'EU_A', label: 'Ireland (eu-west-1)', group: 'Europe' },
  { value: 'AU_A', label: 'Sydney (ap-southeast-2)', group: 'Australia' },
];
