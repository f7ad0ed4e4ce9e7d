/**
 * The import source contract. A source lists records of an outside system and maps each to an
 * imported record (001 §3.4). Everything in and out is plain JSON and nothing here names a core
 * type, so the same contract can be handed to plugins through the SDK: a provider plugin's source
 * is an object of this shape.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The import sources of 001 §3.4. */
export const SOURCE_KINDS = [
  'API',
  'APP_STORE',
  'CSV',
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
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** A support ticket as a source gives it (001 §3.4). */
export interface ImportedTicket {
  kind: 'ticket';
  createdAt: string;
  name: string | null;
  description: string | null;
  tags: string[];
  creator: string | null;
  remoteFields: { [key: string]: Json };
}

/** One message of a conversation (001 §3.4). */
export interface ImportedMessage {
  text: string;
  timestamp: string;
  participant: string | null;
  externalId: string | null;
}

export interface ImportedConversation {
  kind: 'conversation';
  messages: ImportedMessage[];
}

export type ImportedRaw = ImportedTicket | ImportedConversation;

/** One record of a source, mapped (001 §3.4: externalId, externalUrl, raw, importUrl). */
export interface ImportedRecord {
  /** Unique within the dataset: importing the same id again updates its data point. */
  externalId: string;
  externalUrl?: string | null;
  importUrl?: string | null;
  /** The feedback's text: what later work groups into themes. */
  content: string;
  /** When the feedback was given, ISO 8601. */
  createdAt: string;
  raw?: ImportedRaw | null;
  /** The customer: matched by email to the workspace's people, created when new. */
  person?: { email: string; name?: string | null } | null;
  sentiment?: 'positive' | 'negative' | 'mixed' | null;
  /** Custom field values by field label; the field's type is in `fieldTypes` of the page. */
  fields?: { [label: string]: string | number | boolean };
}

/** A record the source could not map, with where it was and why (e.g. a malformed CSV line). */
export interface RejectedRecord {
  line?: number;
  externalId?: string;
  reason: string;
}

/** A record with where it was read (a file's line), for failures to point at. */
export type SourceItem = { record: ImportedRecord; line?: number } | { rejected: RejectedRecord } | { skipped: true };

/** A page of a listing and where the next one starts. */
export interface SourcePage {
  items: SourceItem[];
  /** Saved with the page's records: a listing resumed from it continues after this page. */
  cursor: Json;
}

/** The settings a source declares (its payload fields, 001 §3.4), described for forms. */
export interface SourceSetting {
  key: string;
  label: string;
  type: 'string' | 'string[]' | 'date' | 'integer' | 'boolean';
  required?: boolean;
  description?: string;
}

/** What a listing is given: the settings, where to start, and for a file source its text. */
export interface ListInput {
  settings: { [key: string]: Json };
  /** null: the first listing (the first import period); otherwise the cursor of the last page kept. */
  cursor: Json;
  /** The uploaded file of a file source. */
  file?: string | null;
  /** How many records a page should hold. */
  pageSize: number;
}

export interface ImportSource {
  kind: SourceKind;
  label: string;
  settings: readonly SourceSetting[];
  /** Custom field types by label for the values records carry (e.g. from a CSV's column mapping). */
  fieldTypes(settings: { [key: string]: Json }): { [label: string]: string };
  /** Throws an Error whose message is for people when the settings do not fit. */
  checkSettings(settings: { [key: string]: Json }): void;
  /** Lists records incrementally from `cursor`, one page at a time. */
  list(input: ListInput): AsyncIterable<SourcePage>;
}
