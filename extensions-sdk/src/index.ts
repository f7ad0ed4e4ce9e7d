import { z } from 'zod';
import { internalHostProblem } from './internal-hosts.ts';
import { PLUGIN_SCOPES } from './server/scopes.ts';

export { INTERNAL_IPV4_RANGES, internalHostProblem } from './internal-hosts.ts';

/** The SDK version plugins declare compatibility with in `sdk` (a semver range such as `^1`). */
export const SDK_VERSION = '1.0.0';

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** A plugin id: lowercase letters, digits and hyphens, starting with a letter (e.g. `slack`). */
export const pluginIdSchema = z
  .string()
  .regex(
    /^[a-z][a-z0-9-]{1,48}[a-z0-9]$/,
    'A plugin id is 3 to 50 lowercase letters, digits or hyphens, starting with a letter.',
  );

/**
 * A capability a plugin asks for: a data scope (`notes:write`, see PLUGIN_SCOPES in the server
 * entry) or an outbound host it may call (`egress:slack.com`), never an internal one (loopback,
 * private ranges, link-local, `localhost`). The context a plugin receives holds only these.
 */
export const pluginPermissionSchema = z
  .string()
  .regex(
    /^(egress:[a-z0-9-]+(\.[a-z0-9-]+)+|[a-z][a-zA-Z]*:[a-z][a-zA-Z]*)$/,
    'A permission is `area:action` (e.g. `notes:write`) or `egress:host.name`.',
  )
  .refine((p) => p.startsWith('egress:') || Object.hasOwn(PLUGIN_SCOPES, p), {
    message: `Unknown permission; use one of ${Object.keys(PLUGIN_SCOPES).join(', ')} or egress:host.name.`,
  })
  .superRefine((p, ctx) => {
    const problem = p.startsWith('egress:') ? internalHostProblem(p.slice('egress:'.length)) : null;
    if (problem)
      ctx.addIssue({ code: 'custom', message: `${problem} Declare the public host the plugin calls instead.` });
  });

/** Where a plugin's web part is served from, which module the host loads, and where it shows. */
export const pluginWebManifestSchema = z.object({
  /**
   * URL of the Module Federation manifest or remote entry, absolute or relative to the app. Left
   * out by a plugin whose package names its built web folder (`fieldbook.web`): Fieldbook serves it.
   */
  entry: z.string().min(1).max(2000).optional(),
  /** The exposed module that default-exports the plugin's web extension; `./extension` when left out. */
  exposes: z
    .string()
    .regex(/^\.\/[A-Za-z0-9_./-]+$/, 'An exposed module starts with "./".')
    .optional(),
  /**
   * The slots the web part fills (`project.settings.panel/v1`, ...). The app then loads it only
   * where one of them is drawn. Left out, the app loads it with every workspace page, as a web
   * part that adds pages or navigation needs.
   */
  slots: z
    .array(z.string().regex(/^[a-z][a-z0-9.-]*\/v[0-9]+$/, 'A slot is named like `project.settings.panel/v1`.'))
    .max(50)
    .optional(),
});

/** What every plugin declares about itself; validated when the plugin loads. */
export const pluginManifestSchema = z.object({
  id: pluginIdSchema,
  version: z.string().regex(SEMVER, 'The version must be a semantic version such as 1.2.3.'),
  /** The SDK versions the plugin works with, as a semver range (e.g. `^1`). */
  sdk: z.string().trim().min(1, 'Say which SDK versions the plugin works with, e.g. "^1".').max(50),
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(500).optional(),
  permissions: z.array(pluginPermissionSchema).max(100).default([]),
  web: pluginWebManifestSchema.optional(),
});

export type PluginManifest = z.infer<typeof pluginManifestSchema>;
export type PluginPermission = PluginManifest['permissions'][number];

/** Parses a manifest, failing with every problem named by its field. */
export function parsePluginManifest(input: unknown): PluginManifest {
  const parsed = pluginManifestSchema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.') || 'manifest'}: ${i.message}`);
    throw new Error(`Invalid plugin manifest:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** The Module Federation name of a plugin's web remote; its build and the host both use it. */
export const remoteName = (pluginId: string): string => `fieldbook_plugin_${pluginId.replace(/-/g, '_')}`;
