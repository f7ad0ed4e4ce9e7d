/**
 * The import source contract. A source lists records of an outside system and maps each to an
 * imported record (001 §3.4). Everything in and out is plain JSON and nothing here names a core
 * type; what a record is comes from the SDK, so the built-in sources and the plugins' ones give
 * the same records. The host runs a plugin's source as an object of this shape (plugin.ts).
 */
import {
  PLUGIN_SOURCE_KINDS,
  type JsonValue,
  type SourceField,
  type SourceRecord,
} from '@fieldbook/extensions-sdk/server';

export type Json = JsonValue;

/** The import sources of 001 §3.4: Fieldbook's own (API, CSV) and those plugins contribute. */
export const SOURCE_KINDS = ['API', 'CSV', ...PLUGIN_SOURCE_KINDS] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

// A record (with its raw ticket or conversation) and a settings field are the SDK's: plugins give
// records of that shape and the built-in sources give the same, so each is defined once, there.
export type { SourceField, SourceRecord } from '@fieldbook/extensions-sdk/server';
/** An imported record: the SDK's record, by the name the channels module uses for it. */
export type ImportedRecord = SourceRecord;

/** A record the source could not map, with where it was and why (e.g. a malformed CSV line). */
export interface RejectedRecord {
  line?: number;
  externalId?: string;
  reason: string;
}

/** A record with where it was read (a file's line), for failures to point at. */
export type SourceItem =
  | { record: ImportedRecord; line?: number }
  | { rejected: RejectedRecord }
  | { skipped: true; line?: number };

/** A page of a listing and where the next one starts. */
export interface SourcePage {
  items: SourceItem[];
  /** Saved with the page's records: a listing resumed from it continues after this page. */
  cursor: Json;
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
  settings: readonly SourceField[];
  /** Custom field types by label for the values records carry (e.g. from a CSV's column mapping). */
  fieldTypes(settings: { [key: string]: Json }): { [label: string]: string };
  /** Throws an Error whose message is for people when the settings do not fit. */
  checkSettings(settings: { [key: string]: Json }): void;
  /** Lists records incrementally from `cursor`, one page at a time. */
  list(input: ListInput): AsyncIterable<SourcePage>;
  /**
   * Every item carries its line, lines only grow along a listing, and a listing resumed from a
   * page's cursor starts after that page's last line (a file). Pages of such a source may be
   * written side by side and commit in any order: the run's cursor records which lines are in.
   */
  linesInOrder?: boolean;
}
