const TITLE_MAX = 200;

/** "Pricing study" → "Pricing study (imported)", cut so the whole stays within a title's 200 characters. */
export function importedTitle(title: string): string {
  const suffix = ' (imported)';
  const base = title.trim() || 'Project';
  return `${base.slice(0, TITLE_MAX - suffix.length).trimEnd()}${suffix}`;
}

/** An export's file is named after its project ("Pricing-study.tar"): the title back from the name. */
export function titleFromFileName(name: string): string {
  return name
    .replace(/\.tar$/i, '')
    .replace(/[-_]+/g, ' ')
    .trim();
}
