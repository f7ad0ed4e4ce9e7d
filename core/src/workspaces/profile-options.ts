/** Company-size buckets a workspace creator picks from (002 §3). */
export const ORG_SIZES = ['1-25', '26-200', '201-500', '501-1000', '1001-5000', '5000+'] as const;
export type OrgSize = (typeof ORG_SIZES)[number];

/** Job roles a person picks from (002 §3). */
export const JOB_ROLES = [
  'consulting',
  'customer success',
  'design',
  'engineering',
  'finance',
  'legal',
  'management',
  'marketing',
  'operations',
  'other',
  'product management',
  'research',
  'sales',
  'student',
  'support',
] as const;
export type JobRole = (typeof JOB_ROLES)[number];

/** Accepts `PRODUCT_MANAGEMENT`, `product-management` or `Product management` alike. */
export const normalizeJobRole = (value: string): string =>
  value.trim().toLowerCase().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ');
