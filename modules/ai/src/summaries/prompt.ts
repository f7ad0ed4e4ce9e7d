import type { ChatMessage } from '@fieldbook/core';
import { FRAMEWORK_INFO, type SummaryFramework, type SummaryKind } from './frameworks.ts';

/** Recorded with every summary so a change of prompt can be told apart in what it made. */
export const SUMMARY_PROMPT_VERSION = 'summary-v1';

export interface SummarySource {
  id: string;
  label: string;
  text: string;
}

const SHAPES: Record<SummaryKind, string> = {
  chapter: '{"type":"section","title":"...","startTime":"mm:ss or null","text":"..."} for each chapter, in order',
  paragraph: '{"type":"text","text":"..."} for each paragraph',
  streaming: '{"type":"text","text":"..."} for each paragraph',
};

export function summaryMessages(
  kind: SummaryKind,
  framework: SummaryFramework,
  customPrompt: string | null,
  sources: readonly SummarySource[],
): ChatMessage[] {
  const how = framework === 'CustomPrompt' ? (customPrompt ?? '') : FRAMEWORK_INFO[framework].instruction;
  const system = [
    'You summarise customer research for a research team. Use only the material given; never invent facts.',
    `Instruction: ${how}`,
    'Answer with JSON lines: exactly one JSON object per line, nothing else.',
    `Write ${SHAPES[kind]}.`,
    'Add {"type":"quote","itemId":"<source id>","text":"<exact words>"} lines for the strongest supporting quotes: copy the words exactly as they appear in that source; a quote not found word for word in its source is discarded.',
    'If the material is too thin to summarise, answer only {"type":"notEnoughData"}.',
  ].join('\n');
  const material = sources.map((s) => `<source id="${s.id}" kind="${s.label}">\n${s.text}\n</source>`).join('\n\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: material },
  ];
}
