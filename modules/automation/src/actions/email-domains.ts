import type { Knex } from 'knex';
import { z } from 'zod';
import type { RequestContext } from '@fieldbook/core';

/** Domains an admin may allow at most (a list for partners, not a way round the rule). */
export const EMAIL_DOMAINS_MAX = 50;

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The allow-list as admins write it: "Partner.com" or "@partner.com", kept lower-case without "@". */
export const emailDomainsSchema = z
  .array(
    z
      .string({ error: 'emailDomains: each must be a domain such as partner.com.' })
      .trim()
      .toLowerCase()
      .transform((d) => d.replace(/^@/, ''))
      .refine((d) => DOMAIN.test(d), 'emailDomains: each must be a domain such as partner.com.'),
  )
  .max(EMAIL_DOMAINS_MAX, `emailDomains: at most ${EMAIL_DOMAINS_MAX} domains.`)
  .transform((ds) => [...new Set(ds)]);

export async function emailDomainsOf(trx: Knex.Transaction, workspaceId: string): Promise<string[]> {
  const row = (await trx('automation_settings').where({ workspace_id: workspaceId }).first('email_domains')) as
    | { email_domains: string[] }
    | undefined;
  return row?.email_domains ?? [];
}

/**
 * Why sendEmail may not write to these addresses, or null: anyone outside the workspace must be at
 * a domain a workspace admin allowed, so an automation cannot mail workspace content anywhere.
 */
export async function outsideAddresses(member: RequestContext, to: readonly string[]): Promise<string | null> {
  const workspaceId = member.workspace?.id;
  if (!workspaceId) throw new Error('An automation runs in a workspace.');
  const wanted = [...new Set(to.map((t) => t.trim().toLowerCase()))];
  const { members, domains } = await member.tx(async (trx) => ({
    members: new Set(
      (
        (await trx('workspace_members as m')
          .join('users as u', 'u.id', 'm.user_id')
          .where('m.workspace_id', workspaceId)
          .whereRaw('lower(u.email) = any(?)', [wanted])
          .select('u.email')) as Array<{ email: string }>
      ).map((r) => r.email.toLowerCase()),
    ),
    domains: new Set(await emailDomainsOf(trx, workspaceId)),
  }));
  const refused = wanted
    .filter((address) => !members.has(address))
    .map((address) => ({ address, domain: address.slice(address.lastIndexOf('@') + 1) }))
    .filter((a) => !domains.has(a.domain));
  if (refused.length === 0) return null;
  const names = refused.map(
    (a) =>
      `${a.address} is outside this workspace, and ${a.domain} is not on the list of domains automations may email`,
  );
  return `to: ${names.join('; ')}. A workspace admin can add ${refused.length === 1 ? 'it' : 'them'} in the automation settings.`;
}
