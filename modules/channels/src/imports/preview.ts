import { CHANNEL_LIMITS } from '../limits.ts';
import { columnsProblem } from '../sources/csv/columns.ts';
import { detectDelimiter, firstNulLine, readCsv } from '../sources/csv/parse.ts';

/** The columns and first rows of a CSV file, as its preview shows them. */
export interface CsvPreview {
  delimiter: string;
  headers: string[];
  rows: Array<{ line: number; cells: string[]; error: string | null }>;
  /** The file's rows when it was read whole (it fits in the preview's bytes); null when it goes on. */
  rowCount: number | null;
  /** True when the preview read the whole file. */
  complete: boolean;
  /** The first line with a NUL character among those read. */
  nulLine: number | null;
}

/** A value cut to the preview's length, ending with an ellipsis when it was longer. */
const cut = (value: string): string =>
  value.length > CHANNEL_LIMITS.previewValue ? `${value.slice(0, CHANNEL_LIMITS.previewValue - 1)}…` : value;

/**
 * Previews the head of a CSV file: `text` is the whole file when `complete`, else its first
 * bytes, whose last row may be cut short and is left out. Reads no further than the rows shown
 * unless the file is complete (its rows are then counted). Answers why the file cannot be
 * imported instead, when its columns say so.
 */
export function previewCsv(text: string, complete: boolean): CsvPreview | { problem: string } {
  const nulLine = firstNulLine(text);
  const body = text.replaceAll('\0', '').replace(/^\uFEFF/, '');
  const delimiter = detectDelimiter(body);
  const rows: CsvPreview['rows'] = [];
  let headers: string[] | null = null;
  let rowCount = 0;
  const lastChar = body.charCodeAt(body.length - 1);
  const endsLine = lastChar === 10 || lastChar === 13;
  for (const row of readCsv(body, delimiter)) {
    // A row running into the end of what was read may go on in the part not read.
    if (!complete && row.next.offset >= body.length && !endsLine) break;
    if (!headers) {
      headers = row.cells.map((c) => c.trim());
      const problem = columnsProblem(headers);
      if (problem) return { problem };
      continue;
    }
    rowCount++;
    if (rows.length < CHANNEL_LIMITS.previewRows)
      rows.push({
        line: row.line,
        cells: row.cells.slice(0, CHANNEL_LIMITS.csvColumns).map(cut),
        error: row.error ?? null,
      });
    else if (!complete) break;
  }
  if (!headers)
    return {
      problem: `The first line of a CSV file (its column names) must end within its first ${CHANNEL_LIMITS.previewBytes / (1024 * 1024)} MB.`,
    };
  return { delimiter, headers, rows, rowCount: complete ? rowCount : null, complete, nulLine };
}
