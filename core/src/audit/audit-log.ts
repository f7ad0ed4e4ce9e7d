import type { Knex } from 'knex';

/** Kinds of audit entries (001 §3.11), plus membership changes. */
export const AUDIT_KINDS = [
  'PERMISSION_CHANGE',
  'ROLE_CHANGE',
  'ACCESS_TOKEN',
  'REFRESH_TOKEN',
  'API_TOKEN',
  'INTEGRATION_CHANGE',
  'MEMBER_ADDED',
  'MEMBER_REMOVED',
  'INVITE',
  'USER_GROUP',
  'DOMAINS',
  'WORKSPACE',
  /** A note translated (source and target object id and language). */
  'TRANSLATION',
  /** The workspace's AI model region or settings changed (source, target). */
  'AI_MODEL_REGION',
  /** An MCP client ran a tool with a member's API token (tool name, token, outcome). */
  'MCP_TOOL_CALL',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export interface AuditEntryInput {
  workspaceId: string;
  actorUserId: string | null;
  kind: AuditKind;
  subjectType?: string;
  subjectId?: string;
  /** e.g. `{ old, new }` for a permission change. Never secrets. */
  metadata?: Record<string, unknown>;
}

/** Records an audit entry in the caller's transaction, so it exists exactly when the change does. */
export async function recordAudit(trx: Knex.Transaction, entry: AuditEntryInput): Promise<void> {
  await trx('audit_log').insert({
    workspace_id: entry.workspaceId,
    actor_user_id: entry.actorUserId,
    kind: entry.kind,
    subject_type: entry.subjectType ?? null,
    subject_id: entry.subjectId ?? null,
    metadata: JSON.stringify(entry.metadata ?? {}),
  });
}
