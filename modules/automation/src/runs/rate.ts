import type { Knex } from 'knex';

/** The workspace's settings, defaults when it has saved none. */
export async function settingsOf(
  trx: Knex.Transaction,
  workspaceId: string,
  defaultRunsPerMinute: number,
): Promise<{ timeZone: string; runsPerMinute: number; emailDomains: string[] }> {
  const row = (await trx('automation_settings').where({ workspace_id: workspaceId }).first()) as
    | { time_zone: string; runs_per_minute: number; email_domains: string[] }
    | undefined;
  return {
    timeZone: row?.time_zone ?? 'UTC',
    runsPerMinute: row?.runs_per_minute ?? defaultRunsPerMinute,
    emailDomains: row?.email_domains ?? [],
  };
}

/**
 * Takes up to `wanted` runs from this minute's allowance; answers how many were granted. One row
 * per workspace and minute, counted in the transaction that starts the runs, so every worker
 * shares the count.
 */
export async function takeRuns(
  trx: Knex.Transaction,
  workspaceId: string,
  wanted: number,
  limit: number,
): Promise<number> {
  if (wanted <= 0) return 0;
  const { rows } = (await trx.raw(
    `insert into automation_rate (workspace_id, minute, runs) values (?, date_trunc('minute', now()), ?)
     on conflict (workspace_id, minute) do update set runs = automation_rate.runs + excluded.runs
     returning runs`,
    [workspaceId, wanted],
  )) as { rows: Array<{ runs: number }> };
  const after = rows[0]!.runs;
  const before = after - wanted;
  return Math.max(0, Math.min(wanted, limit - before));
}

export const rateLimitMessage = (limit: number) =>
  `This workspace's limit of ${limit} automation runs per minute was reached; this run was skipped.`;
