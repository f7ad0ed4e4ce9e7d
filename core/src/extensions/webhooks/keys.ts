import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { LoadedPlugin } from '../catalog/catalog.ts';
import { installations, type InstallationRow } from '../installations/store.ts';
import type { SecretBox } from '../runtime/secret-box.ts';

/**
 * The keys of installations' own webhook URLs (/hooks/{pluginId}/{key}). A key is 256 random bits
 * in base64url: the URL is the only thing a provider presents before its signature is checked, so
 * it must not be guessable. It is kept twice: hashed, to find the installation a delivery is for,
 * and sealed with the server secret, to show admins the URL again.
 */
const KEY_BYTES = 32;
const KEY_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Where an installation's deliveries are recorded as coming from; never the key itself. */
export const installationHookPath = (pluginId: string): string => `/hooks/${pluginId}`;

export const hashWebhookKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** Whether a path segment could be a key at all, so anything else is refused before a query. */
export const looksLikeWebhookKey = (key: string): boolean => KEY_SHAPE.test(key);

export function newWebhookKey(box: SecretBox): { webhook_key_hash: string; webhook_key: string } {
  const key = randomBytes(KEY_BYTES).toString('base64url');
  return { webhook_key_hash: hashWebhookKey(key), webhook_key: box.seal({ key }) };
}

export const hasInstallationWebhook = (plugin: LoadedPlugin | undefined): boolean =>
  plugin?.definition.server.installationWebhook !== undefined;

/** The installation's webhook URL, or null when its plugin has none (or no key was given yet). */
export function installationWebhookUrl(
  publicUrl: string,
  plugin: LoadedPlugin,
  row: Pick<InstallationRow, 'webhook_key'>,
  box: SecretBox,
): string | null {
  if (!hasInstallationWebhook(plugin) || !row.webhook_key) return null;
  const { key } = box.open(row.webhook_key);
  return key ? `${publicUrl.replace(/\/$/, '')}${installationHookPath(plugin.id)}/${key}` : null;
}

/**
 * Gives a key to each of these installations whose plugin has an installation webhook but that
 * has none yet: installed before the plugin declared one. Runs in the workspace's scope.
 */
export async function ensureWebhookKeys(
  trx: Knex.Transaction,
  rows: InstallationRow[],
  pluginOf: (id: string) => LoadedPlugin | undefined,
  box: SecretBox,
): Promise<InstallationRow[]> {
  const out: InstallationRow[] = [];
  for (const row of rows) {
    if (row.webhook_key || !hasInstallationWebhook(pluginOf(row.plugin_id))) {
      out.push(row);
      continue;
    }
    const [updated] = await installations(trx)
      .where({ id: row.id })
      .whereNull('webhook_key')
      .update(newWebhookKey(box))
      .returning('*');
    out.push(updated ?? (await installations(trx).where({ id: row.id }).first()) ?? row);
  }
  return out;
}
