import type { Knex } from 'knex';
import { settingsSchema, type SettingsDeclaration } from '@fieldbook/extensions-sdk/server';
import { AppError, badInput } from '../../errors/app-error.ts';
import type { SecretBox } from '../runtime/secret-box.ts';

export interface InstallationRow {
  id: string;
  workspace_id: string;
  plugin_id: string;
  settings: Record<string, string | boolean>;
  secrets: string | null;
  external_id: string | null;
  connection_label: string | null;
  connection_tokens: string | null;
  installed_by: string | null;
  /** SHA-256 of the installation's webhook URL key (see webhooks/keys.ts); null without one. */
  webhook_key_hash: string | null;
  /** The key sealed with the server secret, to show the URL to admins. */
  webhook_key: string | null;
  /** The permissions a workspace admin approved (installations/approval.ts); null until recorded. */
  approved_permissions: string[] | null;
  created_at: Date;
  updated_at: Date;
}

export const installations = (trx: Knex | Knex.Transaction) => trx<InstallationRow>('plugin_installations');

export async function findInstallation(trx: Knex.Transaction, pluginId: string): Promise<InstallationRow | null> {
  return (await installations(trx).where({ plugin_id: pluginId }).first()) ?? null;
}

/** The settings as the plugin reads them: plain values with the secrets opened. */
export function settingsOf(
  row: Pick<InstallationRow, 'settings' | 'secrets'>,
  box: SecretBox,
): Record<string, string | boolean> {
  return { ...row.settings, ...box.open(row.secrets) };
}

/**
 * Splits submitted settings into plain values and secrets, keeping the stored secrets the form
 * left out (the browser never sees them, so it cannot send them back). An empty secret clears it.
 */
export function mergeSettings(
  declaration: SettingsDeclaration,
  input: unknown,
  stored: Pick<InstallationRow, 'settings' | 'secrets'> | null,
  box: SecretBox,
): { settings: Record<string, string | boolean>; secrets: string | null } {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw badInput('settings', 'Settings must be an object.');
  const parsed = settingsSchema(declaration).safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0] ?? '');
    const message =
      issue.code === 'unrecognized_keys'
        ? `Unknown setting: ${(issue as { keys?: string[] }).keys?.join(', ')}.`
        : issue.message;
    throw new AppError('BAD_USER_INPUT', message, { field: key ? `settings.${key}` : 'settings' });
  }
  const settings: Record<string, string | boolean> = {};
  const secrets: Record<string, string> = stored ? box.open(stored.secrets) : {};
  for (const [key, field] of Object.entries(declaration)) {
    const value = parsed.data[key];
    if (field.kind === 'secret') {
      if (value === '') delete secrets[key];
      else if (typeof value === 'string') secrets[key] = value;
      continue;
    }
    if (value !== undefined && value !== '') settings[key] = value;
    else if (value === undefined && stored && stored.settings[key] !== undefined) settings[key] = stored.settings[key]!;
  }
  for (const [key, field] of Object.entries(declaration)) {
    const required = 'required' in field && field.required;
    const present = field.kind === 'secret' ? secrets[key] !== undefined : settings[key] !== undefined;
    if (required && !present)
      throw new AppError('BAD_USER_INPUT', `${field.label} is required.`, { field: `settings.${key}` });
  }
  return { settings, secrets: Object.keys(secrets).length ? box.seal(secrets) : null };
}
