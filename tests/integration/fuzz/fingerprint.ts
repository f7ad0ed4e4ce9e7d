import type { TestServer } from '../../support/server.ts';

/**
 * What a refused request must leave as it was: the workspace's rows in the tables the fuzzed
 * routes write to (channels' data, people, agents' conversations, research content). Each table
 * is summed as a count and a hash of its rows, so an update shows as well as an insert. The audit
 * log is left out: MCP records refused tool calls there on purpose.
 */
const TABLES = [
  'channels',
  'channel_datasets',
  'channel_datapoints',
  'channel_fields',
  'channel_imports',
  'people',
  'agents',
  'agent_conversations',
  'agent_messages',
  'projects',
  'notes',
  'insights',
  'highlights',
  'tags',
  'comments',
] as const;

export async function workspaceFingerprint(server: TestServer, workspaceId: string): Promise<Record<string, string>> {
  const sql = TABLES.map(
    (t) =>
      `select '${t}' as name, count(*) || ':' || coalesce(sum(hashtext(r::text)::bigint), 0) as print from ${t} r where workspace_id = :ws`,
  ).join(' union all ');
  const { rows } = (await server.fieldbook.db.owner.raw(sql, { ws: workspaceId })) as {
    rows: Array<{ name: string; print: string }>;
  };
  return Object.fromEntries(rows.map((r) => [r.name, r.print]));
}
