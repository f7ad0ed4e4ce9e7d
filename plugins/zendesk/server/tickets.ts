import { z } from 'zod';
import {
  defineImportSource,
  PluginInputError,
  type InstallationContext,
  type SourceRecord,
} from '@fieldbook/extensions-sdk/server';
import { accountUrl, ZendeskClient, type ZendeskTicket, type ZendeskUser } from './client.ts';

const list = (what: string) =>
  z
    .array(
      z.string().trim().min(1, `A ${what} cannot be empty.`).max(200, `A ${what} can be at most 200 characters long.`),
      { error: `${what}s must be a list.` },
    )
    .max(100, `At most 100 ${what}s can be chosen.`)
    .default([]);

/** ZENDESK payload fields (001 §3.4): groups and tags; none chosen imports every ticket. */
export const zendeskSettings = z.object({ groups: list('group'), tags: list('tag') }).strict();

type Ctx = InstallationContext<never>;

function record(ticket: ZendeskTicket, users: Map<number, ZendeskUser>, site: string): SourceRecord {
  const requester = ticket.requester_id == null ? undefined : users.get(ticket.requester_id);
  const subject = ticket.subject?.trim() || null;
  const description = ticket.description?.trim() || null;
  return {
    externalId: String(ticket.id),
    externalUrl: `${site}/agent/tickets/${ticket.id}`,
    importUrl: ticket.url,
    content: [subject, description].filter(Boolean).join('\n\n') || `Ticket ${ticket.id}`,
    createdAt: ticket.created_at,
    person: requester?.email ? { email: requester.email, name: requester.name } : null,
    raw: {
      kind: 'ticket',
      createdAt: ticket.created_at,
      name: subject,
      description,
      tags: ticket.tags ?? [],
      creator: requester?.email ?? null,
      remoteFields: {
        status: ticket.status,
        priority: ticket.priority,
        type: ticket.type,
        groupId: ticket.group_id,
        updatedAt: ticket.updated_at,
      },
    },
  };
}

/**
 * Zendesk tickets through the incremental ticket export: the first listing starts at the first
 * import period, later ones from the saved cursor, so a refresh reads only tickets created or
 * changed since; a changed ticket updates its data point.
 */
export const zendeskTickets = defineImportSource<Ctx, typeof zendeskSettings>({
  kind: 'ZENDESK',
  label: 'Zendesk tickets',
  description: 'Support tickets of your Zendesk account, from the chosen groups and with the chosen tags.',
  fields: [
    {
      key: 'groups',
      label: 'Groups',
      type: 'string[]',
      description: 'Group names or ids; leave empty for every group.',
    },
    {
      key: 'tags',
      label: 'Tags',
      type: 'string[]',
      description: 'Only tickets with one of these tags; leave empty for every ticket.',
    },
  ],
  settings: zendeskSettings,
  async list(ctx, { settings, cursor, since, pageSize }) {
    const installation = ctx.installation.settings as Record<string, string | undefined>;
    const config = ctx.config as Record<string, string | undefined>;
    if (!installation.subdomain || !installation.email || !installation.apiToken) {
      throw new PluginInputError(
        'Zendesk is not set up: a workspace admin fills in the subdomain, email address and API token in Settings → Extensions → Zendesk.',
      );
    }
    const site = accountUrl(installation.subdomain, undefined);
    const client = new ZendeskClient(ctx.http, {
      baseUrl: accountUrl(installation.subdomain, config.apiUrl),
      email: installation.email,
      apiToken: installation.apiToken,
    });
    // Group names are looked up once per connection and kept in the cursor with the position.
    const at = cursor as { after?: string | null; groupIds?: number[] } | null;
    let groupIds: number[] | undefined = at?.groupIds;
    if (settings.groups.length && !groupIds) {
      const groups = await client.groups();
      groupIds = settings.groups.map((wanted) => {
        const found = groups.find((g) => String(g.id) === wanted || g.name.toLowerCase() === wanted.toLowerCase());
        if (!found) throw new PluginInputError(`Zendesk has no group "${wanted}".`, { field: 'groups' });
        return found.id;
      });
    }
    const inGroups = groupIds?.length ? new Set(groupIds) : null;
    const tags = new Set(settings.tags.map((t) => t.toLowerCase()));
    const page = await client.exportTickets(
      at?.after ? { cursor: at.after } : { startTime: Math.floor(Date.parse(since) / 1000) },
      Math.min(1000, Math.max(1, pageSize)),
    );
    const users = new Map((page.users ?? []).map((u) => [u.id, u]));
    const records = page.tickets
      .filter((t) => t.status !== 'deleted')
      .filter((t) => !inGroups || (t.group_id != null && inGroups.has(t.group_id)))
      .filter((t) => !tags.size || (t.tags ?? []).some((tag) => tags.has(tag.toLowerCase())))
      .map((t) => record(t, users, site));
    // At the stream's end the after cursor still holds: the next refresh asks from there.
    return {
      records,
      cursor: { after: page.after_cursor ?? at?.after ?? null, ...(groupIds ? { groupIds } : {}) },
      hasMore: !page.end_of_stream,
    };
  },
});
