import type { Knex } from 'knex';
import { APP_ROLE } from './app-role.ts';

/** Where secrets the application role never reads are kept (see migrations/0016_least_privilege.ts). */
export const PRIVATE_SCHEMA = 'fieldbook_private';

/**
 * Every table without row-level security that the application role may read, and why. A table
 * added without row-level security must be added here, after deciding what the role needs of it
 * (the privileges test fails until then).
 */
export const READABLE_WITHOUT_ROW_SECURITY: Readonly<Record<string, string>> = {
  users: 'people are global: sign-up, sign-in and profiles; password hashes are kept apart (migration 0016)',
  user_identities: 'which provider account signs in as whom (provider and subject, no secret)',
  sessions: 'every signed-in request checks its session is open; refresh token hashes are write-only',
  retired_refresh_tokens: 'which session a rotated-out refresh token belonged to; the hashes are write-only',
  email_challenges:
    'emailed links and codes: whom they were sent to, their purpose and expiry; their hashes are write-only',
  sign_in_limits: 'attempt counters of sign-in limits',
  workspaces: 'the registry of workspaces, read before any workspace scope exists (subdomains, sign-in rules)',
  search_outbox_switch: 'when the search outbox was switched on; a single timestamp',
  plugin_webhook_events: 'ids and routing of inbound deliveries, to store each once; bodies and headers are write-only',
  notification_digest_pending:
    'who has follow notifications waiting for an email digest of which frequency: user ids only, for the digest sweep',
};

/**
 * Columns the application role may write but never read:
 * - the raw webhook deliveries of every workspace, before they are routed to one (no row-level
 *   security); requests only store them, job workers read them with the owner connection;
 * - API token hashes; a request finds its token through `api_token_for_secret`, which answers
 *   only to someone who holds the secret;
 * - refresh token hashes, current and rotated out; sessions are refreshed and ended by token
 *   through the `session_*` functions below, which likewise take the token's hash, never give one;
 * - the hashes of emailed links and codes, answered through the `email_challenge_*` functions.
 */
const WRITE_ONLY_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  plugin_webhook_events: ['headers', 'body'],
  api_tokens: ['secret_hash'],
  sessions: ['refresh_token_hash'],
  retired_refresh_tokens: ['token_hash'],
  email_challenges: ['secret_hash'],
};

/**
 * Lookups that stand in for the columns above, run as the owner with a pinned search path. Made
 * here rather than in a migration because they belong with the grants they make up for.
 */
const LOOKUPS: readonly string[] = [
  // The open token of a workspace with this hash. The table's row-level security still applies
  // to an owner without BYPASSRLS, so callers look it up inside the token's workspace scope.
  `create or replace function public.api_token_for_secret(p_workspace uuid, p_secret_hash text)
   returns table (id uuid, user_id uuid)
   language sql stable security definer set search_path = pg_catalog, pg_temp as $$
     select t.id, t.user_id from public.api_tokens t
     where t.workspace_id = p_workspace and t.secret_hash = p_secret_hash and t.revoked_at is null
   $$`,
  // Swaps an open session's refresh token for the next one, keeping the old hash to spot reuse.
  `create or replace function public.session_rotate(p_presented text, p_next text, p_expires_at timestamptz)
   returns table (id uuid, user_id uuid)
   language sql security definer set search_path = pg_catalog, pg_temp as $$
     with rotated as (
       update public.sessions s set refresh_token_hash = p_next, last_used_at = now(), updated_at = now(), expires_at = p_expires_at
       where s.refresh_token_hash = p_presented and s.revoked_at is null and s.expires_at > now()
       returning s.id, s.user_id
     ), retired as (
       insert into public.retired_refresh_tokens (token_hash, session_id) select p_presented, r.id from rotated r
     )
     select r.id, r.user_id from rotated r
   $$`,
  // Ends the session a rotated-out token belonged to.
  `create or replace function public.session_revoke_reused(p_token_hash text)
   returns table (id uuid)
   language sql security definer set search_path = pg_catalog, pg_temp as $$
     update public.sessions s set revoked_at = now(), updated_at = now()
     from public.retired_refresh_tokens r
     where r.token_hash = p_token_hash and s.id = r.session_id and s.revoked_at is null
     returning s.id
   $$`,
  // Ends the open session of a current refresh token (sign-out).
  `create or replace function public.session_revoke_by_refresh(p_token_hash text)
   returns table (id uuid)
   language sql security definer set search_path = pg_catalog, pg_temp as $$
     update public.sessions s set revoked_at = now()
     where s.refresh_token_hash = p_token_hash and s.revoked_at is null
     returning s.id
   $$`,
  // Uses up an open link of this purpose; its row, or none.
  `create or replace function public.email_challenge_consume_link(p_secret_hash text, p_purpose text)
   returns table (id uuid, email text, payload jsonb)
   language sql security definer set search_path = pg_catalog, pg_temp as $$
     update public.email_challenges c set consumed_at = now(), updated_at = now()
     where c.secret_hash = p_secret_hash and c.purpose = p_purpose and c.consumed_at is null and c.expires_at > now()
     returning c.id, c.email::text, c.payload
   $$`,
  // Why a link of this purpose no longer works: used, expired, or (no row) never valid.
  `create or replace function public.email_challenge_link_state(p_secret_hash text, p_purpose text)
   returns table (consumed boolean)
   language sql stable security definer set search_path = pg_catalog, pg_temp as $$
     select c.consumed_at is not null from public.email_challenges c
     where c.secret_hash = p_secret_hash and c.purpose = p_purpose limit 1
   $$`,
  // Whether a code challenge's stored hash is this one (the hash is keyed with the server secret).
  `create or replace function public.email_challenge_code_matches(p_id uuid, p_secret_hash text)
   returns boolean
   language sql stable security definer set search_path = pg_catalog, pg_temp as $$
     select coalesce((select c.secret_hash = p_secret_hash from public.email_challenges c where c.id = p_id), false)
   $$`,
];

/** The lookups' signatures, for their grants. */
const LOOKUP_SIGNATURES: readonly string[] = [
  'public.api_token_for_secret(uuid, text)',
  'public.session_rotate(text, text, timestamptz)',
  'public.session_revoke_reused(text)',
  'public.session_revoke_by_refresh(text)',
  'public.email_challenge_consume_link(text, text)',
  'public.email_challenge_link_state(text, text)',
  'public.email_challenge_code_matches(uuid, text)',
];

/** Tables the application role may add rows to but neither change nor remove rows of. */
const APPEND_ONLY_TABLES: readonly string[] = ['plugin_webhook_events'];

/**
 * Narrows the application role's table grants below the blanket ones ensureAppRole gives. Runs
 * after them on every start, so it is reapplied whatever the blanket grants restored.
 */
export async function narrowAppRole(owner: Knex): Promise<void> {
  for (const sql of LOOKUPS) await owner.raw(sql);
  for (const signature of LOOKUP_SIGNATURES) {
    await owner.raw(`REVOKE ALL ON FUNCTION ${signature} FROM PUBLIC`);
    await owner.raw(`GRANT EXECUTE ON FUNCTION ${signature} TO ${APP_ROLE}`);
  }
  for (const [table, hidden] of Object.entries(WRITE_ONLY_COLUMNS)) {
    const { rows } = await owner.raw<{ rows: Array<{ name: string }> }>(
      `select a.attname as name from pg_attribute a
       where a.attrelid = to_regclass(?) and a.attnum > 0 and not a.attisdropped order by a.attnum`,
      [`public.${table}`],
    );
    if (!rows.length) continue;
    const readable = rows.map((r) => r.name).filter((name) => !hidden.includes(name));
    await owner.raw(`REVOKE SELECT ON ?? FROM ${APP_ROLE}`, [table]);
    await owner.raw(`GRANT SELECT (${readable.map(() => '??').join(', ')}) ON ?? TO ${APP_ROLE}`, [...readable, table]);
  }
  for (const table of APPEND_ONLY_TABLES) {
    await owner.raw(`REVOKE UPDATE, DELETE ON ?? FROM ${APP_ROLE}`, [table]);
  }
  // Password hashes (migration 0016): nothing in this schema is the application role's.
  const { rows } = await owner.raw<{ rows: unknown[] }>('select 1 from pg_namespace where nspname = ?', [
    PRIVATE_SCHEMA,
  ]);
  if (rows.length) {
    await owner.raw(`REVOKE ALL ON SCHEMA ${PRIVATE_SCHEMA} FROM ${APP_ROLE}`);
    await owner.raw(`REVOKE ALL ON ALL TABLES IN SCHEMA ${PRIVATE_SCHEMA} FROM ${APP_ROLE}`);
  }
}
