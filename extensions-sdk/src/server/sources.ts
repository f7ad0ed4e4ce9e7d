import type { z } from 'zod';
import type { JsonValue } from './context.ts';

/** The provider import sources of 001 §3.4 a plugin may contribute (CSV and API are Fieldbook's own). */
export const PLUGIN_SOURCE_KINDS = [
  'APP_STORE',
  'FRESHDESK',
  'FRONT',
  'G2_REVIEWS',
  'GONG',
  'GOOGLE_PLAY',
  'HUBSPOT',
  'INTERCOM',
  'JIRA_SERVICE_MANAGEMENT',
  'PENDO',
  'SLACK',
  'SLACK_MESSAGE',
  'ZAPIER',
  'ZENDESK',
] as const;
export type PluginSourceKind = (typeof PLUGIN_SOURCE_KINDS)[number];

/** A support ticket as the source gives it (001 §3.4). */
export interface SourceTicket {
  kind: 'ticket';
  createdAt: string;
  name: string | null;
  description: string | null;
  tags: string[];
  creator: string | null;
  remoteFields: { [key: string]: JsonValue };
}

/** One message of a conversation (001 §3.4). */
export interface SourceMessage {
  text: string;
  timestamp: string;
  participant: string | null;
  externalId: string | null;
}

export interface SourceConversation {
  kind: 'conversation';
  messages: SourceMessage[];
}

/** One record of the provider, mapped to an imported record (001 §3.4). */
export interface SourceRecord {
  /** The provider's id: importing it again updates its data point instead of adding one. */
  externalId: string;
  /** Where people open it at the provider. */
  externalUrl?: string | null;
  /** Where it was read from (the API URL). */
  importUrl?: string | null;
  /** The feedback's text. */
  content: string;
  /** When the customer gave it, ISO 8601. */
  createdAt: string;
  raw?: SourceTicket | SourceConversation | null;
  /** The customer, matched by email to the workspace's people and created when new. */
  person?: { email: string; name?: string | null } | null;
  sentiment?: 'positive' | 'negative' | 'mixed' | null;
  /** Custom field values by label; their types are in the source's `fieldTypes`. */
  fields?: { [label: string]: string | number | boolean };
}

/** A record the plugin read but could not map, with why (shown in the sync history). */
export interface SourceFailure {
  externalId?: string;
  reason: string;
}

/** A field of the form people fill in when they connect the source: its payload fields. */
export interface SourceField {
  /** The key of the settings object, e.g. `groups`. */
  key: string;
  label: string;
  /** `string[]` is typed as a comma-separated list. */
  type: 'string' | 'string[]' | 'integer' | 'date' | 'boolean';
  required?: boolean;
  description?: string;
}

/** What one call of `list` is given. */
export interface SourceListInput<Settings> {
  /** The connection's settings, as the source's `settings` schema parsed them. */
  settings: Settings;
  /** The installation's secret settings (API tokens), opened. */
  secrets: Readonly<Record<string, string>>;
  /** null on the first listing; otherwise the `cursor` of the last page Fieldbook kept. */
  cursor: JsonValue;
  /** The start of the first import period (ISO 8601): records before it are not wanted. */
  since: string;
  /** How many records a page should about hold. */
  pageSize: number;
}

/** One page of records and where the next listing starts. */
export interface SourcePage {
  records: SourceRecord[];
  failures?: SourceFailure[];
  /**
   * Saved with the page's records in one transaction: the next call (after a crash too, and at
   * the next refresh) starts from it. Keep what finds only newer records (a provider's cursor or
   * the last record's time).
   */
  cursor: JsonValue;
  /** False when the provider has nothing more right now; the refresh continues from `cursor`. */
  hasMore: boolean;
}

/**
 * An import source (001 §3.4): people connect it to a channel with settings (its payload fields),
 * and Fieldbook lists it page by page in a job, first the first import period, then at each
 * refresh only what is new, writing each record as a data point unique by its external id.
 *
 * `list` runs in the plugin's sandbox with the installation's context; outbound requests go
 * through `ctx.http`. Throw a `PluginInputError` for what people must fix (a refused credential, a
 * group that does not exist): its message is shown in the sync history as is. A rate limit is for
 * the plugin to wait out (the provider's Retry-After) within the call's wall time.
 */
export interface ImportSourceContribution<Ctx, Settings extends z.ZodType = z.ZodType> {
  kind: PluginSourceKind;
  label: string;
  description?: string;
  /** The connection form, one field per payload field. */
  fields: readonly SourceField[];
  /** Checks and types the connection's settings when it is saved and before each listing. */
  settings: Settings;
  /** Custom field types by label of the values records carry, e.g. `{ Rating: 'RATING' }`. */
  fieldTypes?: { readonly [label: string]: string };
  // A method, not a property: a source typed for its own settings fits the plugin's list.
  list(ctx: Ctx, input: SourceListInput<z.output<Settings>>): Promise<SourcePage>;
}

/** Types an import source written outside `definePlugin`, its `list` input from `settings`. */
export function defineImportSource<Ctx, Settings extends z.ZodType>(
  source: ImportSourceContribution<Ctx, Settings>,
): ImportSourceContribution<Ctx, Settings> {
  return source;
}
