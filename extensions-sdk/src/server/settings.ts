import { z } from 'zod';

/**
 * What a workspace admin fills in when installing a plugin. The host draws the form from these
 * declarations, stores secrets encrypted at rest and never sends them back to the browser (a
 * secret field only says whether it is set).
 */
export type SettingField =
  | { kind: 'text'; label: string; description?: string; required?: boolean; maxLength?: number }
  | { kind: 'secret'; label: string; description?: string; required?: boolean }
  | { kind: 'boolean'; label: string; description?: string }
  /** One of the workspace's projects, chosen from a list. */
  | { kind: 'project'; label: string; description?: string; required?: boolean };

export type SettingsDeclaration = Readonly<Record<string, SettingField>>;

/** The values a plugin reads: text, secrets and projects are strings, booleans booleans; unset is undefined. */
export type SettingsValues<S extends SettingsDeclaration> = {
  readonly [K in keyof S]?: S[K] extends { kind: 'boolean' } ? boolean : string;
};

/**
 * Operator configuration: credentials of the plugin's app at the provider (client id, signing
 * secret) and base URLs, read from environment variables. A plugin whose required configuration is
 * missing is listed as not configured and does nothing.
 */
export interface ConfigField {
  /** The environment variable, e.g. `SLACK_SIGNING_SECRET`. */
  env: string;
  description: string;
  required?: boolean;
  /** Used when the variable is unset (base URLs default to the provider's production API). */
  default?: string;
  /**
   * A base URL the plugin calls. Its host is trusted like the hosts in `permissions`, since the
   * operator chose it (it may be a local server in tests, or a proxy).
   */
  url?: boolean;
}

export type ConfigDeclaration = Readonly<Record<string, ConfigField>>;

export type ConfigValues<C extends ConfigDeclaration> = {
  readonly [K in keyof C]: C[K] extends { required: true }
    ? string
    : C[K] extends { default: string }
      ? string
      : string | undefined;
};

const MAX_TEXT = 2000;

/** Checks submitted settings against a declaration; each problem names its field. */
export function settingsSchema(
  declaration: SettingsDeclaration,
): z.ZodType<Record<string, string | boolean | undefined>> {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(declaration)) {
    if (field.kind === 'boolean') {
      shape[key] = z.boolean().optional();
      continue;
    }
    const max = field.kind === 'text' ? (field.maxLength ?? MAX_TEXT) : MAX_TEXT;
    let s = z.string().trim().max(max, `${field.label} can be at most ${max} characters.`);
    if (field.kind === 'project') s = s.uuid(`${field.label} must be a project of this workspace.`);
    shape[key] = s.optional();
  }
  return z.object(shape).strict() as z.ZodType<Record<string, string | boolean | undefined>>;
}
