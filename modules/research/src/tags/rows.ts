/** Rows of the tag tables as stored, and the views GraphQL answers with. */
export interface TagBoardRow {
  id: string;
  workspace_id: string;
  project_id: string | null;
  title: string;
  description: string | null;
  rank: number;
  created_at: Date;
  updated_at: Date;
}

export interface TagGroupRow {
  id: string;
  workspace_id: string;
  board_id: string;
  title: string;
  color: string | null;
  description: string | null;
  rank: number;
  created_at: Date;
  updated_at: Date;
}

export interface TagRow {
  id: string;
  workspace_id: string;
  board_id: string;
  group_id: string | null;
  title: string;
  color: string;
  description: string | null;
  locked: boolean;
  rank: number;
  created_at: Date;
  updated_at: Date;
}

export interface TagBoardView {
  id: string;
  projectId: string | null;
  title: string;
  description: string | null;
  rank: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface TagGroupView {
  id: string;
  boardId: string;
  title: string;
  color: string | null;
  description: string | null;
  rank: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface TagView {
  id: string;
  boardId: string;
  groupId: string | null;
  title: string;
  color: string;
  description: string | null;
  locked: boolean;
  rank: number;
  createdAt: Date;
  updatedAt: Date;
}

export const boardView = (r: TagBoardRow): TagBoardView => ({
  id: r.id,
  projectId: r.project_id,
  title: r.title,
  description: r.description,
  rank: r.rank,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const groupView = (r: TagGroupRow): TagGroupView => ({
  id: r.id,
  boardId: r.board_id,
  title: r.title,
  color: r.color,
  description: r.description,
  rank: r.rank,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const tagView = (r: TagRow): TagView => ({
  id: r.id,
  boardId: r.board_id,
  groupId: r.group_id,
  title: r.title,
  color: r.color,
  description: r.description,
  locked: r.locked,
  rank: r.rank,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
