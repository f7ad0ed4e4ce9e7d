import { PLUGIN_SCOPES, isPluginScope } from '@fieldbook/extensions-sdk/server';
import type { BrokenPlugin, LoadedPlugin, PluginOrigin } from '../catalog/catalog.ts';
import { pendingPermissions } from '../installations/approval.ts';
import type { InstallationRow } from '../installations/store.ts';
import type { SecretBox } from '../runtime/secret-box.ts';
import { installationWebhookUrl } from '../webhooks/keys.ts';

export interface PluginView {
  id: string;
  name: string;
  version: string;
  origin: OriginView;
  description: string | null;
  state: 'READY' | 'NOT_CONFIGURED' | 'FAILED';
  problem: string | null;
  permissions: Array<{ name: string; description: string }>;
  settingFields: Array<{ key: string; kind: string; label: string; description: string | null; required: boolean }>;
  hasWebPart: boolean;
  connection: 'WORKSPACE' | 'USER' | null;
  webhookPaths: string[];
  installation: InstallationView | null;
}

export interface OriginView {
  kind: 'BUNDLED' | 'NPM' | 'BUILT_IN';
  packageName: string | null;
  packageVersion: string | null;
  path: string | null;
  integrity: string | null;
}

/** Where a plugin came from; its folder and integrity are the server's business, shown to admins only. */
export function originView(origin: PluginOrigin, isAdmin: boolean): OriginView {
  return {
    kind: origin.kind === 'npm' ? 'NPM' : origin.kind === 'bundled' ? 'BUNDLED' : 'BUILT_IN',
    packageName: origin.packageName,
    packageVersion: origin.packageVersion,
    path: isAdmin ? origin.path : null,
    integrity: isAdmin ? origin.integrity : null,
  };
}

export function loadFailureView(broken: BrokenPlugin) {
  return { name: broken.name, origin: originView(broken.origin, true), problem: broken.problem };
}

export interface InstallationView {
  id: string;
  installedAt: string;
  settings: Array<{ key: string; text: string | null; flag: boolean | null; isSet: boolean }>;
  connectedAccount: { externalId: string | null; label: string | null } | null;
  enabledProjectCount: number;
  /** The installation's own webhook URL (admins only); null when the plugin has none. */
  webhookUrl: string | null;
  /** What the plugin's version declares that no admin has approved for this installation (admins only). */
  pendingPermissions: Array<{ name: string; description: string }>;
}

function permissionText(name: string): string {
  if (name.startsWith('egress:')) return `Call ${name.slice('egress:'.length)}`;
  return isPluginScope(name) ? PLUGIN_SCOPES[name] : name;
}

/** What the browser may know of an installation: values, and for secrets only whether they are set. */
export function installationView(
  plugin: LoadedPlugin,
  row: InstallationRow,
  box: SecretBox,
  enabledProjectCount: number,
  publicUrl: string,
): InstallationView {
  const secrets = box.open(row.secrets);
  return {
    id: row.id,
    installedAt: row.created_at.toISOString(),
    settings: Object.entries(plugin.definition.settings).map(([key, field]) => {
      if (field.kind === 'secret') return { key, text: null, flag: null, isSet: secrets[key] !== undefined };
      const value = row.settings[key];
      return {
        key,
        text: typeof value === 'string' ? value : null,
        flag: typeof value === 'boolean' ? value : null,
        isSet: value !== undefined,
      };
    }),
    connectedAccount:
      row.external_id || row.connection_tokens ? { externalId: row.external_id, label: row.connection_label } : null,
    enabledProjectCount,
    webhookUrl: installationWebhookUrl(publicUrl, plugin, row, box),
    pendingPermissions: pendingPermissions(plugin, row).map((name) => ({ name, description: permissionText(name) })),
  };
}

export function pluginView(plugin: LoadedPlugin, installation: InstallationView | null, isAdmin: boolean): PluginView {
  const { manifest, definition } = plugin;
  return {
    id: plugin.id,
    name: manifest.name,
    version: manifest.version,
    origin: originView(plugin.origin, isAdmin),
    description: manifest.description ?? null,
    state: plugin.state === 'ready' ? 'READY' : plugin.state === 'failed' ? 'FAILED' : 'NOT_CONFIGURED',
    problem: isAdmin ? plugin.problem : plugin.problem ? 'Not available yet; ask a workspace admin.' : null,
    permissions: manifest.permissions.map((name) => ({ name, description: permissionText(name) })),
    settingFields: Object.entries(definition.settings).map(([key, f]) => ({
      key,
      kind: f.kind,
      label: f.label,
      description: f.description ?? null,
      required: 'required' in f && f.required === true,
    })),
    hasWebPart: plugin.webDir !== null || manifest.web?.entry !== undefined,
    connection: definition.server.oauth ? (definition.server.oauth.level === 'user' ? 'USER' : 'WORKSPACE') : null,
    webhookPaths: (definition.server.webhooks ?? []).map((h) => h.path),
    // The webhook URL is a credential of sorts (anyone holding it can knock): admins only.
    installation: isAdmin
      ? installation
      : installation && { ...installation, settings: [], webhookUrl: null, pendingPermissions: [] },
  };
}
