/** The GraphQL operations and shapes the note and insight pages use. */
import { MAKER_FIELDS, type Maker } from '../browse/ui/WrittenByAi.tsx';

export type DocumentKind = 'note' | 'insight';

export interface ProjectAccess {
  level: string;
  accessRole: string | null;
  canEdit: boolean;
  canDelete: boolean;
}

export interface Person {
  id: string;
  name: string;
  email: string | null;
  company: string | null;
}

export interface Highlight {
  id: string;
  noteId: string | null;
  insightId: string | null;
  text: string;
  startOffset: number;
  endOffset: number;
  color: string | null;
  displayColor: string | null;
  createdAt: string;
  note?: { id: string; title: string } | null;
  /** A person, or AI when a suggestion was accepted. */
  createdBy?: Maker;
}

export interface RichDoc {
  type: string;
  content?: RichDoc[];
  [key: string]: unknown;
}

export interface DocumentData {
  id: string;
  projectId: string;
  title: string;
  content: RichDoc | null;
  contentText: string;
  locked: boolean;
  archived: boolean;
  updatedAt: string;
  project: { id: string; title: string; myAccess: ProjectAccess };
  highlights: Highlight[];
  /** A person, AI or an agent. */
  createdBy?: Maker;
  /** Notes only. */
  people?: Person[];
  /** Insights only. */
  published?: boolean;
  publishedAt?: string | null;
  summary?: RichDoc | null;
}

const HIGHLIGHT = `id noteId insightId text startOffset endOffset color displayColor createdAt ${MAKER_FIELDS}`;
const PROJECT = 'project { id title myAccess { level accessRole canEdit canDelete } }';
const COMMON = `id projectId title content contentText locked archived updatedAt ${MAKER_FIELDS} ${PROJECT}`;

export const NOTE_QUERY = `query DocumentNote($id: ID!) {
  note(id: $id) { ${COMMON} highlights { ${HIGHLIGHT} } people { id name email company } }
}`;

export const INSIGHT_QUERY = `query DocumentInsight($id: ID!) {
  insight(id: $id) { ${COMMON} published publishedAt summary highlights { ${HIGHLIGHT} note { id title } } }
}`;

export const UPDATE_NOTE = `mutation UpdateNote($id: ID!, $input: UpdateNoteInput!) { updateNote(id: $id, input: $input) { id title contentText updatedAt } }`;
export const UPDATE_INSIGHT = `mutation UpdateInsight($id: ID!, $input: UpdateInsightInput!) { updateInsight(id: $id, input: $input) { id title contentText updatedAt } }`;
export const PUBLISH_INSIGHT = `mutation PublishInsight($id: ID!) { publishInsight(id: $id) { id published publishedAt } }`;
export const UNPUBLISH_INSIGHT = `mutation UnpublishInsight($id: ID!) { unpublishInsight(id: $id) { id published publishedAt } }`;

export const NOTE_HIGHLIGHTS = `query NoteHighlights($id: ID!) { note(id: $id) { id highlights { ${HIGHLIGHT} } } }`;
export const CREATE_HIGHLIGHT = `mutation CreateHighlight($input: CreateHighlightInput!) { createHighlight(input: $input) { ${HIGHLIGHT} } }`;
export const DELETE_NOTE = `mutation DocumentDeleteNote($id: ID!) { deleteNote(id: $id) }`;
export const DELETE_INSIGHT = `mutation DocumentDeleteInsight($id: ID!) { deleteInsight(id: $id) }`;
export const DELETE_HIGHLIGHT = `mutation DeleteHighlight($id: ID!) { deleteHighlight(id: $id) }`;
export const PROJECT_HIGHLIGHTS = `query ProjectHighlights($projectId: ID!, $after: String) {
  highlights(projectId: $projectId, first: 200, after: $after) { nodes { ${HIGHLIGHT} note { id title } } endCursor hasNextPage }
}`;
export const CITE_HIGHLIGHT = `mutation CiteHighlight($insightId: ID!, $highlightId: ID!) { citeHighlight(insightId: $insightId, highlightId: $highlightId) { ${HIGHLIGHT} note { id title } } }`;
export const UNCITE_HIGHLIGHT = `mutation UnciteHighlight($insightId: ID!, $highlightId: ID!) { unciteHighlight(insightId: $insightId, highlightId: $highlightId) { id } }`;

export interface Tag {
  id: string;
  title: string;
  color: string;
  highlightColor: string;
  boardId: string;
}

export interface TagBoard {
  id: string;
  projectId: string | null;
  title: string;
  tags: Tag[];
}

const TAG = 'id title color highlightColor boardId';
export const TAG_BOARDS = `query DocumentTagBoards($projectId: ID) { tagBoards(projectId: $projectId, includeWorkspace: true) { id projectId title tags { ${TAG} } } }`;
export const CREATE_TAG = `mutation DocumentCreateTag($input: CreateTagInput!) { createTag(input: $input) { ${TAG} } }`;
export const CREATE_TAG_BOARD = `mutation DocumentCreateTagBoard($input: CreateTagBoardInput!) { createTagBoard(input: $input) { id projectId title tags { ${TAG} } } }`;
export const TAG_HIGHLIGHT = `mutation DocumentTagHighlight($highlightId: ID!, $tagIds: [ID!]!) { tagHighlight(highlightId: $highlightId, tagIds: $tagIds) { ${TAG} } }`;
export const UNTAG_HIGHLIGHT = `mutation DocumentUntagHighlight($highlightId: ID!, $tagIds: [ID!]!) { untagHighlight(highlightId: $highlightId, tagIds: $tagIds) { ${TAG} } }`;
export const TAG_NOTE = `mutation DocumentTagNote($noteId: ID!, $tagIds: [ID!]!) { tagNote(noteId: $noteId, tagIds: $tagIds) { ${TAG} } }`;
export const UNTAG_NOTE = `mutation DocumentUntagNote($noteId: ID!, $tagIds: [ID!]!) { untagNote(noteId: $noteId, tagIds: $tagIds) { ${TAG} } }`;

/** The tags of many highlights in one request: one aliased field per highlight. */
export function highlightTagsQuery(ids: readonly string[]): string {
  const fields = ids.map((id, i) => `h${i}: highlightTags(highlightId: ${JSON.stringify(id)}) { ${TAG} }`).join('\n');
  return `query DocumentHighlightTags { ${fields} }`;
}

export type FieldType =
  | 'ARR'
  | 'BOOLEAN'
  | 'CSAT'
  | 'DATETIME'
  | 'EMAIL'
  | 'NPS'
  | 'NUMBER'
  | 'PERSON'
  | 'PHONE'
  | 'RATING'
  | 'SELECT'
  | 'TEXT'
  | 'URL';

export interface FieldOption {
  id: string;
  label: string;
  color: string;
}

export interface Field {
  id: string;
  type: FieldType;
  label: string;
  maxSelectable: number | null;
  options: FieldOption[];
}

export interface FieldValue {
  field: { id: string };
  value: unknown;
  options: FieldOption[];
}

const FIELD = 'id type label maxSelectable options { id label color }';
export const FIELDS_QUERY = `query DocumentFields($objectType: FieldObjectType!, $projectId: ID, $valueType: FieldValueObjectType!, $objectId: ID!) {
  own: fieldSet(objectType: $objectType, projectId: $projectId) { ${FIELD} }
  workspace: fieldSet(objectType: WORKSPACE) { ${FIELD} }
  fieldValues(objectType: $valueType, objectId: $objectId) { field { id } value options { id label color } }
}`;
export const SET_FIELD_VALUE = `mutation DocumentSetFieldValue($objectType: FieldValueObjectType!, $objectId: ID!, $fieldId: ID!, $value: JSON, $optionIds: [String!]) {
  setFieldValue(objectType: $objectType, objectId: $objectId, fieldId: $fieldId, value: $value, optionIds: $optionIds) { field { id } value options { id label color } }
}`;

export interface Comment {
  id: string;
  body: string;
  text: string;
  authorId: string | null;
  authorName: string | null;
  canEdit: boolean;
  canDelete: boolean;
  createdAt: string;
  editedAt: string | null;
}

const COMMENT = 'id body text authorId authorName canEdit canDelete createdAt editedAt';
export const COMMENTS = `query DocumentComments($objectType: CommentObjectType!, $objectId: ID!) {
  comments(objectType: $objectType, objectId: $objectId, first: 200) { nodes { ${COMMENT} } }
}`;
export const CREATE_COMMENT = `mutation DocumentCreateComment($input: CreateCommentInput!) { createComment(input: $input) { ${COMMENT} } }`;
export const UPDATE_COMMENT = `mutation DocumentUpdateComment($id: ID!, $input: UpdateCommentInput!) { updateComment(id: $id, input: $input) { ${COMMENT} } }`;
export const DELETE_COMMENT = `mutation DocumentDeleteComment($id: ID!) { deleteComment(id: $id) }`;

export interface Member {
  id: string;
  name: string;
  email: string;
}
export const MEMBERS = `query DocumentMembers { members(first: 200) { nodes { user { id name email } } } }`;

export const PEOPLE = `query DocumentPeople($search: String) { people(search: $search, first: 20) { nodes { id name email company } } }`;
export const ADD_PERSON = `mutation DocumentAddPerson($noteId: ID!, $personId: ID!) { addPersonToNote(noteId: $noteId, personId: $personId) { id people { id name email company } } }`;
export const REMOVE_PERSON = `mutation DocumentRemovePerson($noteId: ID!, $personId: ID!) { removePersonFromNote(noteId: $noteId, personId: $personId) { id people { id name email company } } }`;
export const CREATE_PERSON = `mutation DocumentCreatePerson($input: CreatePersonInput!) { createPerson(input: $input) { id name email company } }`;

export type ShareObjectType =
  | 'insight'
  | 'note'
  | 'noteHighlight'
  | 'project'
  | 'projectReadme'
  | 'projectChart'
  | 'dashboard';

export interface ShareLink {
  id: string;
  token: string;
  path: string;
  url: string;
  createdAt: string;
  active: boolean;
}

const LINK = 'id token path url createdAt active';
export const SHARE_LINKS = `query DocumentShareLinks($type: ShareObjectType!, $id: ID!) { shareLinks(objectType: $type, objectId: $id) { ${LINK} } }`;
export const CREATE_SHARE_LINK = `mutation DocumentCreateShareLink($type: ShareObjectType!, $id: ID!) { createShareLink(objectType: $type, objectId: $id) { ${LINK} } }`;
export const REVOKE_SHARE_LINK = `mutation DocumentRevokeShareLink($id: ID!) { revokeShareLink(id: $id) { ${LINK} } }`;
