import type { ChatMessage } from '@fieldbook/core';

/** Recorded with every suggestion so a change of prompt can be told apart in what it made. */
export const SUGGESTION_PROMPT_VERSION = 'highlights-v1';

export function suggestionMessages(title: string, text: string, max: number): ChatMessage[] {
  const system = [
    'You help a research team highlight customer research notes. Pick the passages a researcher would highlight:',
    "pain points, needs, requests, strong opinions, surprising facts, and the customer's own words about them.",
    `Pick at most ${max} passages, each one sentence or a few, copied exactly as written in the note (same words, same spelling).`,
    'Answer with JSON lines: one {"type":"highlight","text":"<exact passage>","reason":"<why it matters, under 15 words>"} per line, nothing else.',
    'A passage not found word for word in the note is discarded.',
  ].join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: `<note title="${title.replace(/"/g, "'")}">\n${text}\n</note>` },
  ];
}
