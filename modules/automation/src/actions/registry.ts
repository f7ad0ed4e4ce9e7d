import { badInput, type ExtensionsServices } from '@fieldbook/core';
import type { JsonObject } from '@fieldbook/extensions-sdk/server';
import type { ActionType, StoredAction } from './types.ts';

/** Every plugin's automation actions, run through the plugin host (which checks their parameters again). */
export function pluginActions(host: ExtensionsServices['host']): ActionType[] {
  return host.automationActions().map((a) => ({
    actionType: a.key,
    pluginId: a.pluginId,
    title: a.title,
    description: a.description ?? `An action of ${a.pluginName}.`,
    parameters: a.parameters,
    transactional: false,
    async checkIds(member) {
      if (!member.workspace || !(await host.isInstalled(member.workspace.id, a.pluginId))) {
        throw badInput('actionType', `${a.pluginName} is not installed in this workspace.`);
      }
    },
    async execute(member, params, trigger) {
      const result = await host.runAction({
        pluginId: a.pluginId,
        workspaceId: member.workspace!.id,
        key: a.key,
        params,
        trigger: { event: trigger.event, payload: trigger.payload as JsonObject },
      });
      return result ?? undefined;
    },
  }));
}

/** The action type a stored action names; a plugin's when it names the plugin or no built-in has the name. */
export function findAction(
  types: readonly ActionType[],
  action: Pick<StoredAction, 'actionType' | 'pluginId'>,
): ActionType | undefined {
  return types.find(
    (t) => t.actionType === action.actionType && (action.pluginId ? t.pluginId === action.pluginId : true),
  );
}
