import type { AuditKind } from '../../audit/audit-log.ts';
import { FieldbookModel } from './base.ts';

/** One row of the audit log (001 §3.11); written through recordAudit, read here. */
export class AuditEntry extends FieldbookModel {
  static override tableName = 'audit_log';
  static override jsonAttributes = ['metadata'];

  declare id: string;
  declare workspaceId: string;
  declare actorUserId: string | null;
  declare kind: AuditKind;
  declare subjectType: string | null;
  declare subjectId: string | null;
  declare metadata: Record<string, unknown>;
  declare createdAt: Date;
}
