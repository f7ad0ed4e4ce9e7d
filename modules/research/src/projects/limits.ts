/** Limits of 000 §9 that projects, folders, notes and insights enforce. */
export const CONTENT_LIMITS = {
  projectsPerWorkspace: 200,
  title: 200,
  /** A page of notes, insights or highlights. */
  pageSize: 200,
} as const;

export const PROJECT_STATUSES = ['ACTIVE', 'ARCHIVED', 'COMPLETED'] as const;
export const PROJECT_SECTIONS = ['CHARTS', 'HIGHLIGHTS', 'INSIGHTS', 'NOTES', 'README', 'TAGS'] as const;
