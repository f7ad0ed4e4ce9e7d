/**
 * Reads a model's answer written as JSON lines (one object a line) while it streams, so each
 * part can be checked and shown as soon as its line is complete. Lines that are not a JSON
 * object (a code fence, a stray sentence) are skipped.
 */
export class JsonLines {
  private pending = '';

  /** Feeds streamed text; returns the objects of the lines it completed. */
  push(text: string): Record<string, unknown>[] {
    this.pending += text;
    const lines = this.pending.split('\n');
    this.pending = lines.pop() ?? '';
    return lines.flatMap(parseLine);
  }

  /** The last line, once the stream has ended. */
  end(): Record<string, unknown>[] {
    const rest = this.pending;
    this.pending = '';
    return parseLine(rest);
  }
}

function parseLine(line: string): Record<string, unknown>[] {
  const t = line.trim().replace(/,$/, '');
  if (!t.startsWith('{')) return [];
  try {
    const v: unknown = JSON.parse(t);
    return v && typeof v === 'object' && !Array.isArray(v) ? [v as Record<string, unknown>] : [];
  } catch {
    return [];
  }
}

export const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
