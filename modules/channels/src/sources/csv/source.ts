import { parseDate } from '../../fields/types.ts';
import type { ImportSource, ImportedRecord, Json, SourceItem } from '../contract.ts';
import { csvSettingsSchema, type CsvSettings } from './settings.ts';
import { detectDelimiter, firstNulLine, readCsv, type CsvPosition } from './parse.ts';

/** A file with a NUL character is refused unless the person chose to drop such characters (002 §5). */
export class InvalidCsvCharacter extends Error {
  constructor(readonly line: number) {
    super(
      `Line ${line} of the file contains a NUL character, which a CSV file cannot hold. Remove it, or choose to ignore such characters.`,
    );
  }
}

export function readSettings(settings: { [key: string]: Json }): CsvSettings {
  const parsed = csvSettingsSchema.safeParse(settings);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(issue.message);
  }
  const s = parsed.data;
  if (s.minDate && s.maxDate && Date.parse(s.minDate) > Date.parse(s.maxDate))
    throw new Error('minDate must not be after maxDate.');
  return s;
}

/** The file as it will be read: NULs dropped when the person chose so, refused otherwise. */
export function cleanCsv(text: string, ignoreNul: boolean): string {
  const nul = firstNulLine(text);
  if (nul === null) return text;
  if (!ignoreNul) throw new InvalidCsvCharacter(nul);
  return text.replaceAll('\0', '');
}

/** The most rows one page of a CSV import writes in one transaction. */
export const CSV_PAGE_MOST = 5000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Maps the rows of one file to records. The columns' places and which columns become fields are
 * found once for the file, not again for every row: a million-row import maps each row in a few
 * microseconds.
 */
function rowMapper(
  s: CsvSettings,
  headers: string[],
  importedAt: string,
): (line: number, cells: string[]) => SourceItem {
  const at = (label: string | null | undefined) => (label ? headers.indexOf(label) : -1);
  const contentAt = at(s.analyzeColumnLabel);
  const timestampAt = at(s.timestampColumnLabel);
  const emailAt = at(s.emailFieldPath);
  const externalIdAt = at(s.externalIdColumnLabel);
  const special = new Set([
    s.analyzeColumnLabel,
    s.timestampColumnLabel,
    s.emailFieldPath,
    s.externalIdColumnLabel,
    ...s.unselectedHeaders,
  ]);
  const fieldColumns = headers.flatMap((h, i) => (special.has(h) ? [] : [i]));
  const minTime = s.minDate ? Date.parse(s.minDate) : null;
  const maxTime = s.maxDate ? endOfDay(s.maxDate) : null;
  const cell = (cells: string[], i: number) => (i < 0 ? '' : (cells[i] ?? '').trim());
  return (line, cells) => {
    if (cells.length !== headers.length)
      return {
        rejected: {
          line,
          reason: `The row has ${cells.length} values where the header has ${headers.length} columns.`,
        },
      };
    const content = cell(cells, contentAt);
    if (!content) return { rejected: { line, reason: `The column "${s.analyzeColumnLabel}" is empty.` } };
    let createdAt = importedAt;
    if (s.timestampColumnLabel) {
      const stamp = cell(cells, timestampAt);
      const when = parseDate(stamp);
      if (!when)
        return {
          rejected: { line, reason: `"${stamp}" in the column "${s.timestampColumnLabel}" is not an ISO 8601 date.` },
        };
      // minDate and maxDate keep the rows of the period chosen; the others are skipped, not failed.
      if (minTime !== null && when.getTime() < minTime) return { skipped: true, line };
      if (maxTime !== null && when.getTime() > maxTime) return { skipped: true, line };
      createdAt = when.toISOString();
    }
    const email = cell(cells, emailAt);
    if (email && !EMAIL.test(email))
      return { rejected: { line, reason: `"${email}" in the column "${s.emailFieldPath}" is not an email address.` } };
    const fields: Record<string, string> = {};
    const remoteFields: Record<string, string> = {};
    for (let i = 0; i < headers.length; i++) remoteFields[headers[i]!] = cells[i] ?? '';
    for (const i of fieldColumns) {
      const value = (cells[i] ?? '').trim();
      if (value) fields[headers[i]!] = value;
    }
    const externalId = s.externalIdColumnLabel ? cell(cells, externalIdAt) : `line-${line}`;
    if (!externalId) return { rejected: { line, reason: `The column "${s.externalIdColumnLabel}" is empty.` } };
    const record: ImportedRecord = {
      externalId,
      content,
      createdAt,
      raw: {
        kind: 'ticket',
        createdAt,
        name: null,
        description: content,
        tags: [],
        creator: email || null,
        remoteFields,
      },
      person: email ? { email } : null,
      fields,
    };
    return { record, line };
  };
}

/** A date alone as maxDate includes that whole day. */
const endOfDay = (date: string): number =>
  /^\d{4}-\d{2}-\d{2}$/.test(date.trim()) ? Date.parse(date) + 86_400_000 - 1 : Date.parse(date);

/** The columns of a CSV file, checked against the settings' column labels. */
export function headersOf(text: string): string[] {
  const first = readCsv(text, detectDelimiter(text)).next();
  return first.done ? [] : first.value.cells.map((h) => h.trim());
}

/** CSV files uploaded by a person: the cursor is the last line whose row was kept. */
export const csvSource: ImportSource = {
  kind: 'CSV',
  label: 'CSV file',
  settings: [
    { key: 'analyzeColumnLabel', label: 'Feedback column', type: 'string', required: true },
    { key: 'timestampColumnLabel', label: 'Date column', type: 'string' },
    { key: 'emailFieldPath', label: 'Customer email column', type: 'string' },
    { key: 'unselectedHeaders', label: 'Columns left out', type: 'string[]' },
    { key: 'minDate', label: 'From', type: 'date' },
    { key: 'maxDate', label: 'Until', type: 'date' },
  ],
  fieldTypes: (settings) => {
    const s = readSettings(settings);
    return { ...s.fieldTypes };
  },
  checkSettings: (settings) => {
    readSettings(settings);
  },
  linesInOrder: true,
  async *list({ settings, cursor, file, pageSize }) {
    const s = readSettings(settings);
    const text = cleanCsv(file ?? '', s.ignoreNul);
    const saved = typeof cursor === 'object' && cursor && !Array.isArray(cursor) ? cursor : {};
    const after = typeof saved.line === 'number' ? saved.line : 0;
    const importedAt = typeof settings.importedAt === 'string' ? settings.importedAt : new Date().toISOString();
    const delimiter = detectDelimiter(text);
    const header = readCsv(text, delimiter).next();
    if (header.done) return;
    const headers = header.value.cells.map((h) => h.trim());
    for (const label of [s.analyzeColumnLabel, s.timestampColumnLabel, s.emailFieldPath, s.externalIdColumnLabel]) {
      if (label && !headers.includes(label)) throw new Error(`The file has no column "${label}".`);
    }
    // A resumed run reads on from where its last kept page ended (a cursor of an older version,
    // a line alone, reads from the top and skips the lines already kept).
    const resume =
      typeof saved.offset === 'number' && typeof saved.nextLine === 'number' && after > 0
        ? { offset: saved.offset, line: saved.nextLine }
        : header.value.next;
    const rows = readCsv(text, delimiter, resume);
    const mapRow = rowMapper(s, headers, importedAt);
    // The first pages are small so progress shows at once; later ones grow to CSV_PAGE_MOST rows,
    // few enough per transaction that a crash loses little.
    let size = pageSize;
    let items: SourceItem[] = [];
    const cursorAfter = (row: { line: number; next: CsvPosition }) => ({
      line: row.line,
      offset: row.next.offset,
      nextLine: row.next.line,
    });
    let last: { line: number; offset: number; nextLine: number } | null = null;
    for (const row of rows) {
      if (row.line <= after) continue;
      last = cursorAfter(row);
      items.push(
        row.error
          ? { rejected: { line: row.line, reason: `The row cannot be read: ${row.error}.` } }
          : mapRow(row.line, row.cells),
      );
      if (items.length >= size) {
        yield { items, cursor: last };
        items = [];
        size = Math.min(size * 2, Math.max(pageSize, CSV_PAGE_MOST));
      }
    }
    if (items.length && last) yield { items, cursor: last };
  },
};
