/** CSV reading (002 §5): the delimiter is a comma or a semicolon, found from the header line. */

export type Delimiter = ',' | ';';

export interface CsvRow {
  /** The line the row starts on, 1 being the header. */
  line: number;
  cells: string[];
  /** Why the row cannot be read; its cells are then unreliable. */
  error?: string;
}

/** The first line that holds a NUL character, or null. */
export function firstNulLine(text: string): number | null {
  const at = text.indexOf('\0');
  if (at < 0) return null;
  let line = 1;
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Comma or semicolon: whichever the header line has more of outside quotes (comma on a tie). */
export function detectDelimiter(text: string): Delimiter {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch === ',') commas++;
    else if (!quoted && ch === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

/**
 * Reads rows as RFC 4180 says (quotes double inside quoted values, which may span lines). A row
 * with a stray quote is returned with its error and reading goes on at the next line, so one bad
 * row never takes the rest of the file with it.
 */
export function* readCsv(text: string, delimiter: Delimiter): Generator<CsvRow> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let i = 0;
  let line = 1;
  const n = body.length;
  while (i < n) {
    const start = line;
    const cells: string[] = [];
    let cell = '';
    let error: string | undefined;
    let done = false;
    let atCellStart = true;
    while (i < n && !done) {
      const ch = body[i]!;
      if (atCellStart && ch === '"') {
        // A quoted value: up to the next lone quote.
        i++;
        let closed = false;
        while (i < n) {
          const c = body[i]!;
          if (c === '"') {
            if (body[i + 1] === '"') {
              cell += '"';
              i += 2;
              continue;
            }
            i++;
            closed = true;
            break;
          }
          if (c === '\n') line++;
          cell += c;
          i++;
        }
        if (!closed) {
          error = `a quoted value that starts on line ${start} is never closed`;
          done = true;
          break;
        }
        atCellStart = false;
        const next = body[i];
        if (next !== undefined && next !== delimiter && next !== '\n' && next !== '\r') {
          error = 'text follows a closing quote inside a value';
        }
        continue;
      }
      if (ch === delimiter) {
        cells.push(cell);
        cell = '';
        atCellStart = true;
        i++;
      } else if (ch === '\n' || ch === '\r') {
        if (ch === '\r' && body[i + 1] === '\n') i++;
        i++;
        line++;
        done = true;
      } else {
        if (ch === '"' && !error) error = 'a quote inside a value that is not quoted';
        cell += ch;
        atCellStart = false;
        i++;
      }
    }
    cells.push(cell);
    // Blank lines are not rows.
    if (cells.length === 1 && cells[0] === '' && !error) continue;
    yield error ? { line: start, cells, error } : { line: start, cells };
  }
}
