import type { SearchResultType } from '../src/filters/index.ts';

/** The GraphQL operations the search screens use (modules/search/src/api and feeds schemas). */

export interface SearchHit {
  type: SearchResultType;
  id: string;
  title: string;
  /** HTML-escaped text with matches in `<mark>`; null without a query. */
  snippet: string | null;
  projectId: string | null;
  projectTitle: string | null;
  /** A highlight's note; null for the other types. */
  parentId: string | null;
  score: number;
  updatedAt: string;
}

export interface TypeCount {
  type: SearchResultType;
  count: number;
  /** A large count the server estimated, shown as "about N". */
  isEstimate: boolean;
}

export interface SearchAnswer {
  counts: { totalCount: number; totalIsEstimate: boolean; countsByType: TypeCount[] };
  results: { totalCount: number; totalIsEstimate: boolean; hits: SearchHit[] };
}

export type SearchLayout = 'GRID' | 'LIST';

/** The latest full rebuild of the workspace's search index. */
export interface SearchReindex {
  engine: string;
  state: 'NOT_NEEDED' | 'IDLE' | 'QUEUED' | 'RUNNING' | 'DONE' | 'FAILED';
  processed: number;
  total: number;
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
}

export interface SavedFeed {
  id: string;
  title: string;
  query: string | null;
  filter: unknown;
  resultTypes: SearchResultType[];
  projectIds: string[];
  projectCategoryIds: string[];
  shared: boolean;
  rank: number;
  createdBy: { id: string; name: string } | null;
  isOwn: boolean;
  canDelete: boolean;
  createdAt: string;
  updatedAt: string;
}

const HIT = 'type id title snippet projectId projectTitle parentId score updatedAt';
const REINDEX = 'engine state processed total startedAt finishedAt error';
const FEED =
  'id title query filter resultTypes projectIds projectCategoryIds shared rank createdBy { id name } isOwn canDelete createdAt updatedAt';

export const Q = {
  /** Counts over every type for the tabs, and the page of hits for the tab shown, in one request. */
  search: `query SearchScreen($counts: SearchInput!, $input: SearchInput!) {
    counts: search(input: $counts) { totalCount totalIsEstimate countsByType { type count isEstimate } }
    results: search(input: $input) { totalCount totalIsEstimate hits { ${HIT} } }
  }`,
  pick: `query SearchPick($input: SearchInput!) { search(input: $input) { hits { type id title projectTitle } } }`,
  layout: `query SearchLayout { searchLayout }`,
  setLayout: `mutation SearchSetLayout($layout: SearchLayout!) { setSearchLayout(layout: $layout) }`,
  feeds: `query SearchFeeds { savedFeeds { ${FEED} } }`,
  feed: `query SearchFeed($id: ID!) { savedFeed(id: $id) { ${FEED} } }`,
  createFeed: `mutation SearchCreateFeed($input: CreateSavedFeedInput!) { createSavedFeed(input: $input) { ${FEED} } }`,
  updateFeed: `mutation SearchUpdateFeed($id: ID!, $input: UpdateSavedFeedInput!) { updateSavedFeed(id: $id, input: $input) { ${FEED} } }`,
  deleteFeed: `mutation SearchDeleteFeed($id: ID!) { deleteSavedFeed(id: $id) }`,
  reindexStatus: `query SearchReindexStatus { searchReindex { ${REINDEX} } }`,
  reindex: `mutation SearchReindex { reindexSearch { ${REINDEX} } }`,
  // Choices for the filter's multiselects, from the research module and the workspace.
  projects: `query SearchProjects { projects { id title } }`,
  folders: `query SearchFolders { folders(all: true) { id title path } }`,
  tagBoards: `query SearchTagBoards { allTagBoards { id title groups { id title } tags { id title } } }`,
  people: `query SearchPeople($search: String) { people(search: $search, first: 50) { nodes { id name email } } }`,
  members: `query SearchMembers { members(first: 100) { nodes { user { id name email } } } }`,
} as const;
