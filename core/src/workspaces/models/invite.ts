import type { ProductRole } from '../../permissions/roles.ts';
import { StampedModel } from './base.ts';

/** An invitation to a workspace by email; only the hash of its link token is kept. */
export class Invite extends StampedModel {
  static override tableName = 'invites';

  declare id: string;
  declare workspaceId: string;
  declare email: string;
  declare role: ProductRole;
  declare workspaceAdmin: boolean;
  declare message: string | null;
  declare invitedBy: string | null;
  declare tokenHash: string;
  declare expiresAt: Date;
  declare acceptedAt: Date | null;
  declare revokedAt: Date | null;
  declare createdAt: Date;
}
