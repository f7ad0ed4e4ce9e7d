import type { PluginLogger } from '@fieldbook/extensions-sdk/server';
import type { Logger } from '../../logger.ts';

const REDACTED = '[redacted]';

function scrub(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return secrets.reduce((s, secret) => s.split(secret).join(REDACTED), value);
  if (Array.isArray(value)) return value.map((v) => scrub(v, secrets));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, secrets)]));
  return value;
}

/**
 * A plugin's logger. Every line names the plugin, and the installation's secrets and tokens are
 * cut out of messages and fields, so a plugin that logs a request by mistake leaks nothing.
 */
export function pluginLogger(logger: Logger, pluginId: string, secrets: () => readonly string[]): PluginLogger {
  const child = logger.child({ plugin: pluginId });
  const write = (level: 'info' | 'warn' | 'error') => (message: string, fields?: Record<string, unknown>) => {
    const known = secrets().filter((s) => s.length >= 6);
    child[level]((scrub(fields ?? {}, known) ?? {}) as object, scrub(message, known) as string);
  };
  return { info: write('info'), warn: write('warn'), error: write('error') };
}
