import type { Knex } from 'knex';

/** The AI steps whose automation each workspace chooses (002 §3), and their modes. */
export const AI_MODE_STEPS = ['summarize', 'highlights', 'tags', 'redact', 'insights'] as const;
export type AiModeStep = (typeof AI_MODE_STEPS)[number];
export const AI_MODES = ['On', 'Suggest', 'Off'] as const;
export type AiMode = (typeof AI_MODES)[number];
export const DEFAULT_AI_MODES: Readonly<Record<AiModeStep, AiMode>> = {
  summarize: 'On',
  highlights: 'Suggest',
  tags: 'On',
  redact: 'On',
  insights: 'On',
};

/** Features a workspace may switch off one by one. */
export const AI_FEATURES = ['summaries', 'ask', 'translation'] as const;
export type AiFeature = (typeof AI_FEATURES)[number];

export interface AiSettings {
  enabled: boolean;
  features: Record<AiFeature, boolean>;
  modes: Record<AiModeStep, AiMode>;
  /** Tokens (prompt and completion) the workspace may use per calendar month (UTC); null: no cap. */
  monthlyTokenCap: number | null;
}

export const DEFAULT_AI_SETTINGS: AiSettings = {
  enabled: true,
  features: { summaries: true, ask: true, translation: true },
  modes: { ...DEFAULT_AI_MODES },
  monthlyTokenCap: null,
};

interface SettingsRow {
  enabled: boolean;
  features: Partial<Record<AiFeature, boolean>>;
  modes: Partial<Record<AiModeStep, AiMode>>;
  monthly_token_cap: string | number | null;
}

/** The workspace's settings; defaults when it never saved any. `trx` is scoped to that workspace. */
export async function readAiSettings(trx: Knex | Knex.Transaction, workspaceId: string): Promise<AiSettings> {
  const row = (await trx('ai_settings').where({ workspace_id: workspaceId }).first()) as SettingsRow | undefined;
  if (!row) return structuredClone(DEFAULT_AI_SETTINGS);
  return {
    enabled: row.enabled,
    features: { ...DEFAULT_AI_SETTINGS.features, ...row.features },
    modes: { ...DEFAULT_AI_MODES, ...row.modes },
    monthlyTokenCap: row.monthly_token_cap === null ? null : Number(row.monthly_token_cap),
  };
}

export async function writeAiSettings(
  trx: Knex.Transaction,
  workspaceId: string,
  userId: string,
  settings: AiSettings,
): Promise<void> {
  await trx('ai_settings')
    .insert({
      workspace_id: workspaceId,
      enabled: settings.enabled,
      features: JSON.stringify(settings.features),
      modes: JSON.stringify(settings.modes),
      monthly_token_cap: settings.monthlyTokenCap,
      updated_by: userId,
      updated_at: trx.fn.now(),
    })
    .onConflict('workspace_id')
    .merge();
}
