import type { Knex } from 'knex';

/** The first day (UTC) of the month `at` falls in, as the usage table keys it. */
export function monthOf(at: Date): string {
  return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

export interface MonthlyUsage {
  month: string;
  promptTokens: number;
  completionTokens: number;
  calls: number;
}

export async function readUsage(
  trx: Knex | Knex.Transaction,
  workspaceId: string,
  at = new Date(),
): Promise<MonthlyUsage> {
  const month = monthOf(at);
  const row = (await trx('ai_usage').where({ workspace_id: workspaceId, month }).first()) as
    | { prompt_tokens: string; completion_tokens: string; calls: number }
    | undefined;
  return {
    month,
    promptTokens: Number(row?.prompt_tokens ?? 0),
    completionTokens: Number(row?.completion_tokens ?? 0),
    calls: row?.calls ?? 0,
  };
}

/** Adds one call's tokens to the month's total; concurrent calls add up (one upsert each). */
export async function addUsage(
  trx: Knex.Transaction,
  workspaceId: string,
  promptTokens: number,
  completionTokens: number,
  at = new Date(),
): Promise<void> {
  await trx.raw(
    `insert into ai_usage (workspace_id, month, prompt_tokens, completion_tokens, calls) values (?, ?, ?, ?, 1)
     on conflict (workspace_id, month) do update set prompt_tokens = ai_usage.prompt_tokens + excluded.prompt_tokens,
       completion_tokens = ai_usage.completion_tokens + excluded.completion_tokens, calls = ai_usage.calls + 1`,
    [workspaceId, monthOf(at), promptTokens, completionTokens],
  );
}
