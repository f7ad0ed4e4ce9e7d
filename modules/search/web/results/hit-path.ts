/** What a hit must say for its page to be found. */
export interface HitRef {
  type: string;
  id: string;
  parentId?: string | null;
  projectId?: string | null;
}

/** Where a search hit opens (search results, the command palette); null for kinds without a page. */
export function hitPath(hit: HitRef): string | null {
  switch (hit.type) {
    case 'NOTE':
      return `/data/${hit.id}`;
    case 'INSIGHT':
      return `/insights/${hit.id}`;
    case 'PROJECT':
      return `/projects/${hit.id}`;
    case 'PROJECT_CATEGORY':
      return `/folders/${hit.id}`;
    case 'TAG':
      return `/tags/${hit.id}`;
    case 'PERSON':
      return `/contacts/${hit.id}`;
    case 'HIGHLIGHT':
      // A highlight opens in the note it was made in; one without a note, in its project's highlights.
      return hit.parentId ? `/data/${hit.parentId}` : hit.projectId ? `/projects/${hit.projectId}/highlights` : null;
    case 'CHANNEL':
      return `/channels/${hit.id}`;
    case 'CHANNEL_DATAPOINT':
      return hit.parentId ? `/channels/${hit.parentId}/data/${hit.id}` : null;
    case 'THEME':
      return hit.parentId ? `/channels/${hit.parentId}/themes/${hit.id}` : null;
    default:
      return null;
  }
}
