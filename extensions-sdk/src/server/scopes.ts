/**
 * The data a plugin may ask to use, as `area:action`. The context a plugin receives holds a
 * capability only when its manifest lists the scope; anything else is missing from the type and
 * throws at run time.
 */
export const PLUGIN_SCOPES = {
  'projects:read': 'See the projects of the workspace it is installed in',
  'notes:read': 'Read notes in the projects it is enabled on',
  'notes:write': 'Create notes in the projects it is enabled on',
} as const;

export type PluginScope = keyof typeof PLUGIN_SCOPES;

/** An outbound host a plugin may call, e.g. `egress:slack.com` (subdomains included). */
export type EgressPermission = `egress:${string}`;

/** Everything a plugin may list in `permissions`. */
export type PluginPermissionName = PluginScope | EgressPermission;

export function isPluginScope(value: string): value is PluginScope {
  return Object.hasOwn(PLUGIN_SCOPES, value);
}
