import { FieldbookModel, StampedModel } from './base.ts';

/** A named set of members, granted access together (000 §6 permission map groups). */
export class UserGroup extends StampedModel {
  static override tableName = 'user_groups';

  declare id: string;
  declare workspaceId: string;
  declare name: string;
  declare createdAt: Date;
}

export class UserGroupMember extends FieldbookModel {
  static override tableName = 'user_group_members';
  static override idColumn = ['group_id', 'user_id'];

  declare workspaceId: string;
  declare groupId: string;
  declare userId: string;
  declare createdAt: Date;
}
