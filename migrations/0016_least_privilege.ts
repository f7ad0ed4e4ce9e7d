import type { Knex } from 'knex';

/**
 * Secrets out of the application role's reach.
 *
 * Password hashes move to `fieldbook_private.password_hashes`, a schema the application role is
 * given no access to; the process reads them with the owner connection when it checks a password.
 * Requests still write `users.password_hash` as before (sign-up, reset, clearing an unconfirmed
 * one): a trigger running as the owner moves what is written into the private table and leaves
 * `PASSWORD_KEPT_APART` in its place, so the column still says whether a password is set, and
 * nothing readable by the application role is a hash.
 *
 * What the application role may read of the other tables without row-level security is set by
 * ensureAppRole (core/src/db/privileges.ts), after every migration, because the role may not
 * exist yet while migrating.
 */
export const PRIVATE_SCHEMA = 'fieldbook_private';
export const PASSWORD_KEPT_APART = 'kept in fieldbook_private.password_hashes';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create schema if not exists ${PRIVATE_SCHEMA}`);
  await knex.raw(`revoke all on schema ${PRIVATE_SCHEMA} from public`);
  // No foreign key: the hash is written from a BEFORE trigger, before its users row exists (and a
  // sign-up that loses a race for its email leaves a row for an id that never will; harmless).
  await knex.raw(`
    create table ${PRIVATE_SCHEMA}.password_hashes (
      user_id uuid primary key,
      password_hash text not null,
      updated_at timestamptz not null default now()
    )`);
  await knex.raw(`
    insert into ${PRIVATE_SCHEMA}.password_hashes (user_id, password_hash)
    select id, password_hash from public.users where password_hash is not null`);

  await knex.raw(`
    create or replace function ${PRIVATE_SCHEMA}.keep_password_apart() returns trigger
    language plpgsql security definer set search_path = pg_catalog, pg_temp as $$
    begin
      if tg_op = 'DELETE' then
        delete from ${PRIVATE_SCHEMA}.password_hashes where user_id = old.id;
        return old;
      end if;
      if new.password_hash is null then
        delete from ${PRIVATE_SCHEMA}.password_hashes where user_id = new.id;
      elsif new.password_hash <> '${PASSWORD_KEPT_APART}' then
        insert into ${PRIVATE_SCHEMA}.password_hashes (user_id, password_hash) values (new.id, new.password_hash)
        on conflict (user_id) do update set password_hash = excluded.password_hash, updated_at = now();
        new.password_hash := '${PASSWORD_KEPT_APART}';
      end if;
      return new;
    end
    $$`);
  await knex.raw(`revoke all on function ${PRIVATE_SCHEMA}.keep_password_apart() from public`);
  await knex.raw(`
    create trigger users_keep_password_apart before insert or update of password_hash on public.users
    for each row execute function ${PRIVATE_SCHEMA}.keep_password_apart()`);
  await knex.raw(`
    create trigger users_forget_password after delete on public.users
    for each row execute function ${PRIVATE_SCHEMA}.keep_password_apart()`);
  await knex.raw(`update public.users set password_hash = ? where password_hash is not null`, [PASSWORD_KEPT_APART]);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists users_keep_password_apart on public.users');
  await knex.raw('drop trigger if exists users_forget_password on public.users');
  await knex.raw(`
    update public.users u set password_hash = p.password_hash
    from ${PRIVATE_SCHEMA}.password_hashes p where p.user_id = u.id`);
  await knex.raw(`drop schema if exists ${PRIVATE_SCHEMA} cascade`);
}
