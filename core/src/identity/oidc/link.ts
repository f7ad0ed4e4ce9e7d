import type { Knex } from 'knex';
import { findOrCreateUserRow } from '../accounts.ts';
import type { UserRow } from '../users.ts';
import type { ProviderIdentity } from './flow.ts';

/**
 * The person a provider identity belongs to. A known (provider, subject) pair leads to its person
 * even if their email changed at the provider; a new one is linked to the account with the same
 * (provider-verified) email, or to a new account.
 */
export async function userForProviderIdentity(app: Knex, identity: ProviderIdentity): Promise<UserRow> {
  return app.transaction(async (trx) => {
    const linked = await trx('user_identities as i')
      .join('users as u', 'u.id', 'i.user_id')
      .where({ 'i.provider': identity.provider.key, 'i.subject': identity.subject })
      .first<UserRow | undefined>('u.*');
    if (linked) return linked;
    const user = await findOrCreateUserRow(trx, { email: identity.email, name: identity.name, emailConfirmed: true });
    await trx('user_identities')
      .insert({
        user_id: user.id,
        provider: identity.provider.key,
        subject: identity.subject.slice(0, 255),
        connection_strategy: identity.provider.strategy,
      })
      .onConflict(['provider', 'subject'])
      .ignore();
    return user;
  });
}
