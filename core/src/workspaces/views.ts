import type { Knex } from 'knex';
import type { Config } from '../config.ts';
import type { UserView } from '../identity/payload.ts';
import type { Membership } from '../kernel/request-context.ts';
import { permissionsOf, type ProductRole, type Role } from '../permissions/roles.ts';
import type { Workspace } from './models/index.ts';
import type { RegionCode } from './regions.ts';
import { workspaceAppUrl } from './urls.ts';

export type { UserView };

interface UserColumns {
  id: string;
  email: string;
  name: string;
  email_confirmed_at: Date | null;
  has_password: boolean;
  created_at: Date;
}

/** Users are global rows; only what the API shows is read (never the password hash itself). */
export async function usersById(trx: Knex.Transaction, ids: readonly string[]): Promise<Map<string, UserView>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await trx('users')
    .whereIn('id', unique)
    .select<UserColumns[]>(
      'id',
      'email',
      'name',
      'email_confirmed_at',
      trx.raw('password_hash is not null as has_password'),
      'created_at',
    );
  return new Map(rows.map((r) => [r.id, toUserView(r)]));
}

/** The API's user fields of a joined users table, prefixed so they never clash with the row they join. */
export const userColumns = (trx: Knex | Knex.Transaction, alias: string) => [
  `${alias}.id as user_id`,
  `${alias}.email as user_email`,
  `${alias}.name as user_name`,
  `${alias}.email_confirmed_at as user_email_confirmed_at`,
  trx.raw(`${alias}.password_hash is not null as user_has_password`),
  `${alias}.created_at as user_created_at`,
];

/** Reads the user columns selected with userColumns. */
export function userFromPrefixed(row: Record<string, unknown>): UserView {
  return {
    id: row.user_id as string,
    email: row.user_email as string,
    name: row.user_name as string,
    emailConfirmed: row.user_email_confirmed_at !== null,
    hasPassword: Boolean(row.user_has_password),
    createdAt: row.user_created_at as Date,
  };
}

const toUserView = (r: UserColumns): UserView => ({
  id: r.id,
  email: r.email,
  name: r.name,
  emailConfirmed: r.email_confirmed_at !== null,
  hasPassword: Boolean(r.has_password),
  createdAt: r.created_at,
});

export interface WorkspaceView {
  id: string;
  name: string;
  subdomain: string;
  region: RegionCode;
  logoUrl: string | null;
  primaryColor: string | null;
  allowedDomains: string[];
  publicLinksDisabled: boolean;
  memberCount: number;
  createdAt: Date;
  url: string;
}

/** `trx` must be scoped to the workspace, so its members can be counted. */
export async function workspaceView(trx: Knex.Transaction, config: Config, w: Workspace): Promise<WorkspaceView> {
  const counted = await trx('workspace_members').where({ workspace_id: w.id }).count<Array<{ n: number }>>({ n: '*' });
  return {
    id: w.id,
    name: w.name,
    subdomain: w.subdomain,
    region: w.region,
    logoUrl: w.logoUrl,
    primaryColor: w.primaryColor,
    allowedDomains: w.allowedDomains,
    publicLinksDisabled: w.publicLinksDisabled,
    memberCount: Number(counted[0]?.n ?? 0),
    createdAt: w.createdAt,
    url: workspaceAppUrl(config, w),
  };
}

export interface MembershipView {
  workspace: WorkspaceView;
  role: ProductRole;
  workspaceAdmin: boolean;
  effectiveRole: Role;
  permissions: string[];
  groupIds: readonly string[];
}

export const membershipView = (workspace: WorkspaceView, m: Membership): MembershipView => ({
  workspace,
  role: m.role,
  workspaceAdmin: m.workspaceAdmin,
  effectiveRole: m.effectiveRole,
  permissions: [...permissionsOf(m.effectiveRole)],
  groupIds: m.groupIds,
});
