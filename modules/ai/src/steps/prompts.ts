import type { ChatMessage } from '@fieldbook/core';

/** Recorded with what each step makes, so a change of prompt can be told apart in it. */
export const TAGS_PROMPT_VERSION = 'step-tags-v1';
export const INSIGHT_PROMPT_VERSION = 'step-insight-v1';

const attr = (s: string) => s.replace(/["\n]/g, ' ');

export function tagMessages(
  tags: ReadonlyArray<{ id: string; title: string; description: string | null }>,
  highlights: ReadonlyArray<{ id: string; text: string }>,
): ChatMessage[] {
  const system = [
    'You tag the highlights of a customer research note with the tags the research team already uses.',
    'Use only the tags listed, by their id; never invent a tag. Leave a highlight untagged when no tag fits it well.',
    'Answer with JSON lines: one {"type":"tag","highlightId":"<highlight id>","tagId":"<tag id>"} per line, nothing else.',
  ].join('\n');
  const tagList = tags
    .map((t) => `<tag id="${t.id}" title="${attr(t.title)}">${t.description ? attr(t.description) : ''}</tag>`)
    .join('\n');
  const items = highlights.map((h) => `<highlight id="${h.id}">\n${h.text}\n</highlight>`).join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: `<tags>\n${tagList}\n</tags>\n\n${items}` },
  ];
}

export function insightMessages(
  noteTitle: string,
  highlights: ReadonlyArray<{ id: string; text: string }>,
): ChatMessage[] {
  const system = [
    'You draft one research insight from the highlights of a customer research note: what the team learned, for a researcher to review.',
    'Use only the highlights given; never invent facts.',
    'Answer with JSON lines: first {"type":"insight","title":"<under 12 words>","text":"<two to four sentences>"},',
    'then {"type":"quote","highlightId":"<highlight id>","text":"<exact words>"} for the highlights that support it, copied word for word; a quote not found in its highlight is discarded.',
    'If the highlights do not support an insight, answer only {"type":"notEnoughData"}.',
  ].join('\n');
  const items = highlights.map((h) => `<highlight id="${h.id}">\n${h.text}\n</highlight>`).join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: `<note title="${attr(noteTitle)}">\n${items}\n</note>` },
  ];
}
