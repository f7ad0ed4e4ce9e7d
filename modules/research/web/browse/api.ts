/** The GraphQL operations and shapes the browse screens use (modules/research/src/*\/schema.ts). */
import { MAKER_FIELDS, type Maker } from './ui/WrittenByAi.tsx';

export type ProjectStatus = 'ACTIVE' | 'ARCHIVED' | 'COMPLETED';
export type PermissionLevel = 'none' | 'read' | 'write' | 'full';

export interface ProjectAccess {
  level: PermissionLevel;
  accessRole: 'MANAGER' | 'CONTRIBUTOR' | 'VIEWER' | null;
  canEdit: boolean;
  canManageAccess: boolean;
  canDelete: boolean;
  restricted: boolean;
}

export interface ProjectSummary {
  id: string;
  title: string;
  status: ProjectStatus;
  color: string | null;
  icon: string | null;
  rank: number;
  folderId: string | null;
  folder: { id: string; title: string; path: string } | null;
  starred: boolean;
  createdById: string | null;
  createdAt: string;
  updatedAt: string;
  permissions: PermissionMap;
  myAccess: ProjectAccess;
}

export interface PermissionMap {
  groups: Record<string, PermissionLevel>;
  users: Record<string, PermissionLevel>;
}

export interface Project extends ProjectSummary {
  readme: unknown;
  enabledSections: string[];
}

export interface FolderSummary {
  id: string;
  title: string;
  parentId: string | null;
  path: string;
  rank: number;
}

export interface DocumentSummary {
  id: string;
  projectId: string;
  title: string;
  archived: boolean;
  locked: boolean;
  createdById: string | null;
  createdAt: string;
  updatedAt: string;
  published?: boolean;
  project?: { id: string; title: string; color: string | null };
  /** The start of the text, on one line (lists only). */
  preview?: string;
  people?: Array<{ id: string; name: string }>;
  highlights?: Array<{ id: string }>;
  /** Highlights of a note, or those an insight cites (lists only). */
  highlightCount?: number;
  /** A note's tags, an insight's those of the highlights it cites (lists only). */
  rowTags?: Array<{ id: string; title: string; color: string }>;
  /** A person, AI or an agent. */
  createdBy?: Maker;
}

export type ListOrder = 'CREATED_DESC' | 'CREATED_ASC' | 'TITLE_ASC' | 'UPDATED_DESC' | 'RANK';

export interface Connection<T> {
  nodes: T[];
  endCursor: string | null;
  hasNextPage: boolean;
}

export interface Person {
  id: string;
  name: string;
  email: string | null;
  company: string | null;
  title: string | null;
  avatarUrl: string | null;
  createdAt: string;
}

export interface HighlightSummary {
  id: string;
  text: string;
  displayColor: string | null;
  createdAt: string;
  noteId: string | null;
  note: { id: string; title: string; project: { id: string; title: string } } | null;
}

export interface Tag {
  id: string;
  boardId: string;
  groupId: string | null;
  title: string;
  color: string;
  description: string | null;
  locked: boolean;
  highlightCount: number;
}

export interface TagGroup {
  id: string;
  title: string;
  color: string | null;
  tags: Tag[];
}

export interface TagBoard {
  id: string;
  projectId: string | null;
  title: string;
  description: string | null;
  groups: TagGroup[];
  ungroupedTags: Tag[];
}

const PROJECT_FIELDS = `id title status color icon rank folderId folder { id title path } starred createdById createdAt updatedAt permissions
  myAccess { level accessRole canEdit canManageAccess canDelete restricted }`;
const DOC_FIELDS = `id projectId title archived locked createdById createdAt updatedAt ${MAKER_FIELDS}`;
const TAG_FIELDS = 'id boardId groupId title color description locked highlightCount';

export const q = {
  projects: `query BrowseProjects($status: ProjectStatus) { projects(status: $status) { ${PROJECT_FIELDS} } }`,
  folders: `query BrowseFolders { folders(all: true) { id title parentId path rank } }`,
  project: `query BrowseProject($id: ID!) { project(id: $id) { ${PROJECT_FIELDS} readme enabledSections } }`,
  createProject: `mutation BrowseCreateProject($input: CreateProjectInput!) { createProject(input: $input) { id title } }`,
  updateProject: `mutation BrowseUpdateProject($id: ID!, $input: UpdateProjectInput!) { updateProject(id: $id, input: $input) { ${PROJECT_FIELDS} readme enabledSections } }`,
  moveProject: `mutation BrowseMoveProject($id: ID!, $previousId: ID, $nextId: ID) { moveProject(id: $id, previousId: $previousId, nextId: $nextId) { id rank } }`,
  deleteProject: `mutation BrowseDeleteProject($id: ID!) { deleteProject(id: $id) }`,
  updateAccess: `mutation BrowseUpdateAccess($projectId: ID!, $permissions: JSON!) { updateProjectAccess(projectId: $projectId, permissions: $permissions) { ${PROJECT_FIELDS} readme enabledSections } }`,
  createFolder: `mutation BrowseCreateFolder($title: String!, $parentId: ID) { createFolder(title: $title, parentId: $parentId) { id title parentId path rank } }`,
  folder: `query BrowseFolder($id: ID!) { folder(id: $id) { id title path pathSegments ancestry parentId parent { id title } children { id title path }
    projects { ${PROJECT_FIELDS} } } }`,
  notes: `query BrowseNotes($projectId: ID!, $after: String, $first: Int, $orderBy: ContentOrder, $search: String, $tagIds: [ID!]) { notes(projectId: $projectId, first: $first, after: $after, orderBy: $orderBy, search: $search, tagIds: $tagIds) {
    nodes { ${DOC_FIELDS} preview people { id name } highlightCount rowTags { id title color } } endCursor hasNextPage } }`,
  insights: `query BrowseInsights($projectId: ID!, $after: String, $first: Int, $published: Boolean, $orderBy: ContentOrder, $search: String, $tagIds: [ID!]) { insights(projectId: $projectId, first: $first, after: $after, orderBy: $orderBy, published: $published, search: $search, tagIds: $tagIds) {
    nodes { ${DOC_FIELDS} published preview highlightCount rowTags { id title color } } endCursor hasNextPage } }`,
  updateNote: `mutation BrowseUpdateNote($id: ID!, $input: UpdateNoteInput!) { updateNote(id: $id, input: $input) { id archived } }`,
  updateInsight: `mutation BrowseUpdateInsight($id: ID!, $input: UpdateInsightInput!) { updateInsight(id: $id, input: $input) { id archived } }`,
  deleteNote: `mutation BrowseDeleteNote($id: ID!) { deleteNote(id: $id) }`,
  deleteInsight: `mutation BrowseDeleteInsight($id: ID!) { deleteInsight(id: $id) }`,
  moveNote: `mutation BrowseMoveNote($id: ID!, $previousId: ID, $nextId: ID) { moveNote(id: $id, previousId: $previousId, nextId: $nextId) { id } }`,
  moveInsight: `mutation BrowseMoveInsight($id: ID!, $previousId: ID, $nextId: ID) { moveInsight(id: $id, previousId: $previousId, nextId: $nextId) { id } }`,
  deleteHighlight: `mutation BrowseDeleteHighlight($id: ID!) { deleteHighlight(id: $id) }`,
  tagHighlight: `mutation BrowseTagHighlight($highlightId: ID!, $tagIds: [ID!]!) { tagHighlight(highlightId: $highlightId, tagIds: $tagIds) { id } }`,
  createNote: `mutation BrowseCreateNote($input: CreateNoteInput!) { createNote(input: $input) { id } }`,
  createInsight: `mutation BrowseCreateInsight($input: CreateInsightInput!) { createInsight(input: $input) { id } }`,
  recentNotes: `query BrowseRecentNotes($first: Int, $createdByMe: Boolean) { recentNotes(first: $first, createdByMe: $createdByMe) { ${DOC_FIELDS} project { id title color } } }`,
  recentInsights: `query BrowseRecentInsights($first: Int, $createdByMe: Boolean, $published: Boolean) { recentInsights(first: $first, createdByMe: $createdByMe, published: $published) { ${DOC_FIELDS} published project { id title color } } }`,
  tagBoards: `query BrowseTagBoards($projectId: ID) { tagBoards(projectId: $projectId) { id projectId title description
    groups { id title color tags { ${TAG_FIELDS} } } ungroupedTags { ${TAG_FIELDS} } } }`,
  createTagBoard: `mutation BrowseCreateTagBoard($input: CreateTagBoardInput!) { createTagBoard(input: $input) { id } }`,
  createTagGroup: `mutation BrowseCreateTagGroup($input: CreateTagGroupInput!) { createTagGroup(input: $input) { id } }`,
  createTag: `mutation BrowseCreateTag($input: CreateTagInput!) { createTag(input: $input) { id } }`,
  updateTag: `mutation BrowseUpdateTag($input: UpdateTagInput!) { updateTag(input: $input) { id title } }`,
  updateTagBoard: `mutation BrowseUpdateTagBoard($input: UpdateTagBoardInput!) { updateTagBoard(input: $input) { id title } }`,
  deleteTagBoard: `mutation BrowseDeleteTagBoard($id: ID!) { deleteTagBoard(id: $id) }`,
  moveTagGroup: `mutation BrowseMoveTagGroup($input: MoveTagGroupInput!) { moveTagGroup(input: $input) { id } }`,
  deleteTagGroup: `mutation BrowseDeleteTagGroup($id: ID!) { deleteTagGroup(id: $id) }`,
  moveTag: `mutation BrowseMoveTag($input: MoveTagInput!) { moveTag(input: $input) { id } }`,
  deleteTag: `mutation BrowseDeleteTag($id: ID!) { deleteTag(id: $id) }`,
  updateTagGroup: `mutation BrowseUpdateTagGroup($input: UpdateTagGroupInput!) { updateTagGroup(input: $input) { id title } }`,
  mergeTags: `mutation BrowseMergeTags($sourceIds: [ID!]!, $targetId: ID!) { mergeTags(sourceIds: $sourceIds, targetId: $targetId) { id } }`,
  tag: `query BrowseTag($id: ID!) { tag(id: $id) { ${TAG_FIELDS} createdAt } tagHighlights(tagId: $id, first: 100) { id text displayColor createdAt noteId note { id title project { id title } } } }`,
  tagBoard: `query BrowseTagBoard($id: ID!) { tagBoard(id: $id) { id projectId title } }`,
  people: `query BrowsePeople($search: String, $after: String) { people(search: $search, first: 50, after: $after) { nodes { id name email company title avatarUrl createdAt } endCursor hasNextPage } }`,
  person: `query BrowsePerson($id: ID!) { person(id: $id) { id name email company title avatarUrl createdAt }
    personNotes(personId: $id, first: 50) { nodes { ${DOC_FIELDS} project { id title color } } endCursor hasNextPage }
    personHighlights(personId: $id, first: 50) { nodes { id text displayColor createdAt noteId note { id title project { id title } } } endCursor hasNextPage } }`,
  createPerson: `mutation BrowseCreatePerson($input: CreatePersonInput!) { createPerson(input: $input) { id name } }`,
  deletePerson: `mutation BrowseDeletePerson($id: ID!) { deletePerson(id: $id) }`,
  updatePerson: `mutation BrowseUpdatePerson($id: ID!, $input: UpdatePersonInput!) { updatePerson(id: $id, input: $input) { id name email company title avatarUrl createdAt } }`,
  members: `query BrowseMembers { members(first: 100) { nodes { user { id name email } effectiveRole } } }`,
  userGroups: `query BrowseUserGroups { userGroups { id name memberCount } }`,
  trash: `query BrowseTrash($type: TrashItemType) { trash(type: $type) { type id title projectId deletedAt } }`,
  restore: `mutation BrowseRestore($type: TrashItemType!, $id: ID!) { restore(type: $type, id: $id) }`,
  fieldSet: `query BrowseFieldSet($objectType: FieldObjectType!, $projectId: ID) { fieldSet(objectType: $objectType, projectId: $projectId) { id type label maxSelectable
    numberConfig { format currencySymbol } options { id label color } } }`,
  createField: `mutation BrowseCreateField($input: CreateFieldInput!) { createField(input: $input) { id } }`,
  addFieldOption: `mutation BrowseAddFieldOption($fieldId: ID!, $input: FieldOptionInput!) { addFieldOption(fieldId: $fieldId, input: $input) { id } }`,
  deleteField: `mutation BrowseDeleteField($id: ID!) { deleteField(id: $id) }`,
} as const;
