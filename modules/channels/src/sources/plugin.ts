import { z } from 'zod';
import { listImportSource, type ExtensionsServices } from '@fieldbook/core';
import type { ImportSource, Json, SourceItem, SourceKind, SourceRecord } from './contract.ts';

/**
 * What a plugin's records must look like (the SDK's `SourceRecord`, checked at run time because a
 * plugin's answer crosses the sandbox); each one that does not fails alone, with the reason.
 */
const recordSchema: z.ZodType<SourceRecord> = z.object({
  externalId: z.string(),
  externalUrl: z.string().nullish(),
  importUrl: z.string().nullish(),
  content: z.string(),
  createdAt: z.string(),
  raw: z
    .union([
      z.object({
        kind: z.literal('ticket'),
        createdAt: z.string(),
        name: z.string().nullable(),
        description: z.string().nullable(),
        tags: z.array(z.string()).max(1000),
        creator: z.string().nullable(),
        remoteFields: z.record(z.string(), z.json()),
      }),
      z.object({
        kind: z.literal('conversation'),
        messages: z
          .array(
            z.object({
              text: z.string(),
              timestamp: z.string(),
              participant: z.string().nullable(),
              externalId: z.string().nullable(),
            }),
          )
          .max(1000),
      }),
    ])
    .nullish(),
  person: z.object({ email: z.string(), name: z.string().nullish() }).nullish(),
  sentiment: z.enum(['positive', 'negative', 'mixed']).nullish(),
  fields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});

const pageSchema = z.object({
  records: z.array(z.unknown()),
  failures: z.array(z.object({ externalId: z.string().optional(), reason: z.string() })).optional(),
  cursor: z.json().optional(),
  hasMore: z.boolean(),
});

/** A connection's dataset, as far as its listing needs it. */
export interface ConnectedDataset {
  workspace_id: string;
  source: SourceKind;
  plugin_id: string;
  since: Date | null;
  created_at: Date;
}

/** The start of the first import period, when the connection did not say (001 §3.4: firstImportPeriodDays). */
export const DEFAULT_FIRST_IMPORT_DAYS = 30;

/**
 * A plugin's import source as the import job runs it: each page is one call into the plugin (in
 * its sandbox), the records it gives are checked here, and its cursor is kept with the page.
 */
export function pluginSource(
  extensions: ExtensionsServices,
  dataset: ConnectedDataset,
  actingUserId: string | null,
): ImportSource {
  const offered = extensions.host.catalog
    .ready(dataset.plugin_id)
    ?.definition.server.importSources?.find((s) => s.kind === dataset.source);
  const since = (
    dataset.since ?? new Date(dataset.created_at.getTime() - DEFAULT_FIRST_IMPORT_DAYS * 86_400_000)
  ).toISOString();
  return {
    kind: dataset.source,
    label: offered?.label ?? dataset.source,
    settings: [],
    fieldTypes: () => ({ ...(offered?.fieldTypes ?? {}) }),
    checkSettings: () => undefined,
    async *list({ settings, cursor, pageSize }) {
      let at: Json = cursor;
      for (;;) {
        const answer = await listImportSource(extensions.host, {
          pluginId: dataset.plugin_id,
          kind: dataset.source,
          workspaceId: dataset.workspace_id,
          actingUserId,
          settings,
          cursor: at,
          since,
          pageSize,
        });
        const page = pageSchema.safeParse(answer);
        if (!page.success)
          throw new Error(
            `${offered?.label ?? dataset.source} answered a page Fieldbook cannot read (${page.error.issues[0]!.path.join('.')}: ${page.error.issues[0]!.message}).`,
          );
        const items: SourceItem[] = page.data.records.map((value, i) => {
          const record = recordSchema.safeParse(value);
          if (record.success) return { record: record.data };
          const issue = record.error.issues[0]!;
          const externalId =
            typeof (value as { externalId?: unknown })?.externalId === 'string'
              ? String((value as { externalId: string }).externalId)
              : undefined;
          return {
            rejected: {
              ...(externalId ? { externalId } : {}),
              reason: `records[${i}].${issue.path.join('.')}: ${issue.message}`,
            },
          };
        });
        for (const failure of page.data.failures ?? []) items.push({ rejected: failure });
        at = (page.data.cursor ?? at) as Json;
        yield { items, cursor: at };
        if (!page.data.hasMore) return;
      }
    },
  };
}
