/** The tabs of the projects page; the module's routes give each its own address. */
export const PROJECT_TABS = [
  { value: 'all-projects', label: 'All projects' },
  { value: 'your-projects', label: 'Your projects' },
  { value: 'shared-with-you', label: 'Shared with you' },
  { value: 'folders', label: 'Folders' },
  { value: 'list', label: 'List' },
] as const;
