/** One stretch of speech in a transcript; times are milliseconds from the start of the recording. */
export interface TranscriptTurn {
  start: number;
  end: number;
  speaker?: string;
  text: string;
}

export interface ParseWebVttOptions {
  /** Joins consecutive cues of the same named speaker into one turn (Zoom cuts speech every few seconds). Default true. */
  mergeSpeakerTurns?: boolean;
}

/** The text given is not a WebVTT file. */
export class WebVttError extends Error {
  constructor() {
    super('Not a WebVTT transcript');
    this.name = 'WebVttError';
  }
}

const TIMING = /^((?:\d+:)?\d{2}:\d{2}\.\d{3})[ \t]+-->[ \t]+((?:\d+:)?\d{2}:\d{2}\.\d{3})(?:[ \t].*)?$/;
const VOICE = /^<v(?:\.[^ \t>]+)*[ \t]+([^>]+)>(.*)$/;
// Zoom writes "Speaker Name: what they said". A name is a few words without sentence punctuation
// and not a bare number, so most sentences that merely contain ": " stay text.
const SPEAKER_PREFIX = /^([^:<>,;?!"]{1,80}):[ \t]+(\S.*)$/;
const MAX_NAME_WORDS = 6;
const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  lrm: '',
  rlm: '',
};

/**
 * Turns a WebVTT transcript (Zoom's `TRANSCRIPT` file, or any VTT with `<v Name>` voice spans) into
 * speaker turns. Cues with bad timings are skipped as the WebVTT rules say; NOTE, STYLE and REGION
 * blocks are ignored.
 */
export function parseWebVtt(vtt: string, options: ParseWebVttOptions = {}): TranscriptTurn[] {
  const lines = vtt.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0] ?? '')) throw new WebVttError();

  const turns: TranscriptTurn[] = [];
  for (const block of blocks(lines.slice(1))) {
    const timingIndex = block.findIndex((line) => line.includes('-->'));
    // A cue's timing is its first or second line (after an optional identifier).
    if (timingIndex < 0 || timingIndex > 1) continue;
    const timing = TIMING.exec(block[timingIndex]!.trim());
    if (!timing) continue;
    const start = toMs(timing[1]!);
    const end = toMs(timing[2]!);
    if (end < start) continue;
    for (const segment of speakerSegments(block.slice(timingIndex + 1))) {
      turns.push({ start, end, ...segment });
    }
  }
  return options.mergeSpeakerTurns === false ? turns : mergeTurns(turns);
}

function* blocks(lines: string[]): Generator<string[]> {
  let current: string[] = [];
  for (const line of lines) {
    if (line.trim() === '') {
      if (current.length > 0) yield current;
      current = [];
    } else {
      current.push(line);
    }
  }
  if (current.length > 0) yield current;
}

function speakerSegments(payload: string[]): Array<{ speaker?: string; text: string }> {
  const segments: Array<{ speaker?: string; text: string }> = [];
  for (const rawLine of payload) {
    const voice = VOICE.exec(rawLine.trim());
    const line = cleanText(voice ? voice[2]! : rawLine);
    let speaker = voice ? cleanText(voice[1]!) : undefined;
    let text = line;
    if (!speaker) {
      const prefixed = SPEAKER_PREFIX.exec(line);
      const name = prefixed?.[1]!.trim() ?? '';
      if (prefixed && !/^\d+$/.test(name) && name.split(/\s+/).length <= MAX_NAME_WORDS) {
        speaker = name;
        text = prefixed[2]!;
      }
    }
    const last = segments.at(-1);
    if (speaker || !last) segments.push({ ...(speaker ? { speaker } : {}), text });
    else last.text = `${last.text} ${text}`.trim();
  }
  return segments.filter((segment) => segment.text !== '');
}

function mergeTurns(turns: TranscriptTurn[]): TranscriptTurn[] {
  const merged: TranscriptTurn[] = [];
  for (const turn of turns) {
    const last = merged.at(-1);
    if (last && turn.speaker !== undefined && last.speaker === turn.speaker) {
      last.end = Math.max(last.end, turn.end);
      last.text = `${last.text} ${turn.text}`;
    } else {
      merged.push({ ...turn });
    }
  }
  return merged;
}

function cleanText(text: string): string {
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

function toMs(timestamp: string): number {
  const parts = timestamp.split(':');
  const seconds = Number(parts.pop());
  const minutes = Number(parts.pop());
  const hours = Number(parts.pop() ?? 0);
  return Math.round(((hours * 60 + minutes) * 60 + seconds) * 1000);
}
