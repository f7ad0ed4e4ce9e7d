import { PluginPermissionError } from '@fieldbook/extensions-sdk/server';

/**
 * A permission the plugin's version declares but no workspace admin has approved for the
 * installation yet (a new version asked for more): refused as an undeclared one is, saying why.
 */
export class UnapprovedPermissionError extends PluginPermissionError {
  constructor(pluginId: string, permission: string) {
    super(pluginId, permission);
    this.message = `The plugin ${pluginId} asks for the permission ${permission}, which a workspace admin has not approved yet.`;
  }
}
