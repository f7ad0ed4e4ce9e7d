import type { Knex } from 'knex';
import { z } from 'zod';
import { recordAudit } from '../audit/audit-log.ts';
import { badInput, forbidden, notFound } from '../errors/app-error.ts';
import { validate } from '../errors/validate.ts';
import { withTenant } from '../db/tenancy.ts';
import type { RequestContext, Viewer } from '../kernel/request-context.ts';
import { uuidSchema } from './inputs.ts';
import { randomSecret, sha256Hex } from './secrets.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SECRET = /^[A-Za-z0-9_-]{20,200}$/;

/**
 * Reads an API token (001 §3.5): an optional `api` prefix, the workspace (team) id and a secret,
 * separated by dots. Returns null for anything else, such as a signed access token.
 */
export function parseApiToken(token: string): { workspaceId: string; secret: string } | null {
  const parts = token.split('.');
  if (parts[0] === 'api') parts.shift();
  if (parts.length !== 2) return null;
  const [workspaceId, secret] = parts as [string, string];
  if (!UUID.test(workspaceId) || !SECRET.test(secret)) return null;
  return { workspaceId: workspaceId.toLowerCase(), secret };
}

export const formatApiToken = (workspaceId: string, secret: string): string => `api.${workspaceId}.${secret}`;

interface ApiTokenRow {
  id: string;
  name: string;
  last_four: string;
  created_at: Date;
  last_used_at: Date | null;
}

export interface ApiTokenView {
  id: string;
  name: string;
  lastFour: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const toView = (r: ApiTokenRow): ApiTokenView => ({
  id: r.id,
  name: r.name,
  lastFour: r.last_four,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
});

/**
 * The viewer behind an API token, or null when no open token matches. The table is under
 * row-level security, so the lookup runs scoped to the workspace the token names.
 */
export async function viewerForApiToken(
  app: Knex,
  token: { workspaceId: string; secret: string },
): Promise<Viewer | null> {
  return withTenant(app, { workspaceId: token.workspaceId }, async (trx) => {
    // Token hashes are out of this role's reach; the lookup answers only to the secret's hash.
    const found = await trx.raw<{ rows: Array<{ id: string; user_id: string; email: string; name: string }> }>(
      'select t.id, t.user_id, u.email, u.name from api_token_for_secret(?, ?) t join users u on u.id = t.user_id',
      [token.workspaceId, sha256Hex(token.secret)],
    );
    const row = found.rows[0];
    if (!row) return null;
    // Noted at most once a minute, so a busy integration does not write on every request.
    await trx('api_tokens')
      .where({ id: row.id })
      .where((q) => q.whereNull('last_used_at').orWhere('last_used_at', '<', trx.raw("now() - interval '1 minute'")))
      .update({ last_used_at: trx.fn.now() });
    return { userId: row.user_id, email: row.email, name: row.name, sessionId: null, apiTokenId: row.id };
  });
}

/**
 * Open API tokens one person may have in one workspace: plenty for every script and client they
 * run, and a bound on what a leaked session can mint (each token is a way in until revoked).
 */
export const MAX_API_TOKENS = 50;
export const TOO_MANY_API_TOKENS = `You can have at most ${MAX_API_TOKENS} API tokens in this workspace. Revoke one you no longer use to create another.`;

const nameSchema = z.object({
  name: z.string().trim().min(1, 'Give the token a name.').max(100, 'A token name can be at most 100 characters long.'),
});

/** Creates an API token of the signed-in person for the current workspace; the token is shown once. */
export async function createApiToken(
  ctx: RequestContext,
  args: unknown,
): Promise<{ apiToken: ApiTokenView; token: string }> {
  const { viewer, workspace } = ctx.authorize('profile:update');
  if (viewer.apiTokenId) throw forbidden('API tokens cannot create other API tokens. Sign in to create one.');
  const { name } = validate(nameSchema, args);
  const secret = randomSecret();
  const row = await ctx.tx(async (trx) => {
    // One person's creations take turns, so two at once cannot both pass the count.
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`api-tokens:${workspace.id}:${viewer.userId}`]);
    const open = (await trx('api_tokens')
      .where({ workspace_id: workspace.id, user_id: viewer.userId })
      .whereNull('revoked_at')
      .count<Array<{ n: number }>>('* as n')
      .first()) ?? { n: 0 };
    if (Number(open.n) >= MAX_API_TOKENS) throw badInput('name', TOO_MANY_API_TOKENS);
    const [created] = await trx('api_tokens')
      .insert({
        workspace_id: workspace.id,
        user_id: viewer.userId,
        name,
        secret_hash: sha256Hex(secret),
        last_four: secret.slice(-4),
      })
      .returning<ApiTokenRow[]>(['id', 'name', 'last_four', 'created_at', 'last_used_at']);
    await recordAudit(trx, {
      workspaceId: workspace.id,
      actorUserId: viewer.userId,
      kind: 'API_TOKEN',
      subjectType: 'api_token',
      subjectId: created!.id,
      metadata: { action: 'created', name },
    });
    return created!;
  });
  return { apiToken: toView(row), token: formatApiToken(workspace.id, secret) };
}

/** Revokes one of the signed-in person's tokens; workspace admins may revoke anyone's. */
export async function revokeApiToken(ctx: RequestContext, args: unknown): Promise<boolean> {
  const { viewer, workspace, membership } = ctx.authorize('profile:update');
  const { id } = validate(z.object({ id: uuidSchema }), args);
  return ctx.tx(async (trx) => {
    const q = trx('api_tokens').where({ id, workspace_id: workspace.id }).whereNull('revoked_at');
    if (!membership.workspaceAdmin) q.where({ user_id: viewer.userId });
    const [revoked] = await q
      .update({ revoked_at: trx.fn.now(), updated_at: trx.fn.now() })
      .returning<Array<{ id: string; name: string }>>(['id', 'name']);
    if (!revoked) throw notFound('That API token');
    await recordAudit(trx, {
      workspaceId: workspace.id,
      actorUserId: viewer.userId,
      kind: 'API_TOKEN',
      subjectType: 'api_token',
      subjectId: revoked.id,
      metadata: { action: 'revoked', name: revoked.name },
    });
    return true;
  });
}

/** The signed-in person's open tokens in the current workspace, newest first. */
export async function listApiTokens(ctx: RequestContext): Promise<ApiTokenView[]> {
  const { viewer, workspace } = ctx.authorize('profile:read');
  const rows = await ctx.tx((trx) =>
    trx('api_tokens')
      .where({ workspace_id: workspace.id, user_id: viewer.userId })
      .whereNull('revoked_at')
      .orderBy('created_at', 'desc')
      .select<ApiTokenRow[]>('id', 'name', 'last_four', 'created_at', 'last_used_at'),
  );
  return rows.map(toView);
}
