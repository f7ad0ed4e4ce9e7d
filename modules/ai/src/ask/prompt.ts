import type { ChatMessage } from '@fieldbook/core';
import type { AskSource } from './retrieve.ts';

export const ASK_PROMPT_VERSION = 'ask-v1';
/** Characters of one source shown to the model; quotes are still checked against the whole text. */
const SOURCE_CHARS = 1500;

export function askMessages(question: string, sources: readonly AskSource[]): ChatMessage[] {
  const system = [
    'You answer questions about customer research using only the sources given. If they do not answer the question, say so.',
    'Answer with JSON lines: exactly one JSON object per line, nothing else. Lines are:',
    '{"type":"heading","level":1|2|3,"content":"..."}',
    '{"type":"text","content":"...","citations":[{"ref":"S1","quote":"<exact words from S1>"}]}',
    'Every claim cites at least one source by its ref. A quote must be copied word for word from that source; a quote not found in its source is removed before anyone reads the answer.',
  ].join('\n');
  const material = sources
    .map(
      (s) =>
        `<source ref="${s.ref}" type="${s.type}" title="${s.title.replace(/"/g, "'")}" project="${s.projectTitle.replace(/"/g, "'")}">\n${s.text.slice(0, SOURCE_CHARS)}\n</source>`,
    )
    .join('\n\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: `${material}\n\nQuestion: ${question}` },
  ];
}
