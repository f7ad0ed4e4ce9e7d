import type { ProductRole } from '../../permissions/roles.ts';
import { StampedModel } from './base.ts';

export type JoinedVia = 'CREATE' | 'INVITE' | 'DOMAIN';

/** A person's place in a workspace: a product role plus the admin flag (002 §6). */
export class WorkspaceMember extends StampedModel {
  static override tableName = 'workspace_members';
  static override idColumn = ['workspace_id', 'user_id'];

  declare workspaceId: string;
  declare userId: string;
  declare role: ProductRole;
  declare workspaceAdmin: boolean;
  declare joinedVia: JoinedVia;
  declare createdAt: Date;
}
