import {
  PluginInputError,
  type ImportSourceContribution,
  type InstallationContext,
  type JsonValue,
  type SourceField,
  type SourcePage,
} from '@fieldbook/extensions-sdk/server';
import { AppError } from '../../errors/app-error.ts';
import { installations } from '../installations/store.ts';
import type { LoadedPlugin } from '../catalog/catalog.ts';
import type { PluginHost } from './host.ts';

/** An import source a ready plugin offers, as the channels module lists it. */
export interface PluginImportSource {
  pluginId: string;
  pluginName: string;
  kind: string;
  label: string;
  description: string | null;
  fields: readonly SourceField[];
  fieldTypes: { readonly [label: string]: string };
}

/** A listing's problem people can act on (a refused credential): its message is shown as is. */
export class SourceProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceProblem';
  }
}

function sourceOf(
  host: PluginHost,
  pluginId: string,
  kind: string,
): { plugin: LoadedPlugin; source: ImportSourceContribution<InstallationContext<string>> } {
  const plugin = host.catalog.ready(pluginId);
  const source = plugin?.definition.server.importSources?.find((s) => s.kind === kind);
  if (!plugin || !source)
    throw new AppError('NOT_FOUND', `The import source ${kind} of ${pluginId} is not available on this installation.`, {
      field: 'kind',
    });
  return { plugin, source };
}

/** Every import source of every ready plugin. */
export function pluginImportSources(host: PluginHost): PluginImportSource[] {
  return host.catalog.plugins
    .filter((p) => p.state === 'ready')
    .flatMap((p) =>
      (p.definition.server.importSources ?? []).map((s) => ({
        pluginId: p.id,
        pluginName: p.manifest.name,
        kind: s.kind,
        label: s.label,
        description: s.description ?? null,
        fields: s.fields,
        fieldTypes: s.fieldTypes ?? {},
      })),
    );
}

/** Checks a connection's settings against the source's schema; a problem names its field. */
export function checkImportSourceSettings(
  host: PluginHost,
  pluginId: string,
  kind: string,
  settings: unknown,
): { [key: string]: JsonValue } {
  const { source } = sourceOf(host, pluginId, kind);
  const parsed = source.settings.safeParse(settings);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map(String);
    throw new AppError('BAD_USER_INPUT', `${source.label}: ${issue.message}`, {
      field: ['settings', ...path].join('.'),
    });
  }
  return parsed.data as { [key: string]: JsonValue };
}

/**
 * Lists one page of a plugin's source for a workspace's installation, as the member who
 * connected it. What people must fix (the plugin is not installed, its settings or credential
 * were refused) is thrown as a SourceProblem; anything else as it came.
 */
export async function listImportSource(
  host: PluginHost,
  input: {
    pluginId: string;
    kind: string;
    workspaceId: string;
    actingUserId: string | null;
    settings: unknown;
    cursor: JsonValue;
    since: string;
    pageSize: number;
  },
): Promise<SourcePage> {
  const { plugin, source } = sourceOf(host, input.pluginId, input.kind);
  const row = await host.inWorkspace(input.workspaceId, (trx) =>
    installations(trx).where({ plugin_id: plugin.id }).first(),
  );
  if (!row)
    throw new SourceProblem(
      `${plugin.manifest.name} is not installed in this workspace any more; a workspace admin can install it again at Settings → Extensions.`,
    );
  const parsed = source.settings.safeParse(input.settings);
  if (!parsed.success) throw new SourceProblem(`${source.label}: ${parsed.error.issues[0]!.message}`);
  const ctx = host.installationContext(plugin, row, input.actingUserId ?? row.installed_by);
  const settings = ctx.installation.settings as Record<string, string | boolean | undefined>;
  const secrets = Object.fromEntries(
    Object.entries(plugin.definition.settings)
      .filter(([key, field]) => field.kind === 'secret' && typeof settings[key] === 'string')
      .map(([key]) => [key, settings[key] as string]),
  );
  try {
    return await source.list(ctx, {
      settings: parsed.data,
      secrets,
      cursor: input.cursor,
      since: input.since,
      pageSize: input.pageSize,
    });
  } catch (err) {
    // Said for people by the plugin: shown in the sync history as written.
    if (err instanceof PluginInputError || (err instanceof Error && err.name === 'PluginInputError'))
      throw new SourceProblem(err.message);
    throw err;
  }
}
