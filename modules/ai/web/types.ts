export interface Citation {
  id: string;
  type: 'highlight' | 'insight' | 'note' | 'theme' | 'tag';
  parentId: string | null;
  title: string;
  projectTitle: string;
  text: string;
  quote: string;
  citationReferenceId: string;
  url: string | null;
}
export interface EmergingThemesBlock {
  type: 'emergingThemes';
  channelId: string;
  channelTitle: string;
  items: Array<{ id: string; title: string; previousCount: number; currentCount: number }>;
}

export type AnswerBlock =
  | { type: 'heading'; level: 1 | 2 | 3; content: string }
  | { type: 'text'; content: string; citations: Citation[] }
  | EmergingThemesBlock;
export interface AiAnswer {
  question: string;
  blocks: AnswerBlock[];
  droppedQuotes: number;
  /** Statements left out because every quote they cited was dropped. */
  unsupportedClaims: number;
  local: boolean;
  label: string;
  summary: { numProjects: number; numHighlights: number; numItems: number; isQuestion: boolean };
}
export type SummaryPart =
  | { type: 'text'; text: string }
  | { type: 'section'; title: string; startTime: string | null; text: string }
  | { type: 'quote'; itemId: string; text: string };
export interface AiSummary {
  id: string | null;
  kind: 'chapter' | 'paragraph' | 'streaming';
  framework: string;
  status: 'OK' | 'NOT_ENOUGH_DATA';
  message: string | null;
  text: string;
  sections: Array<{ title: string; startTime: string | null; text: string }>;
  quotes: Array<{ itemId: string; text: string }>;
  droppedQuotes: number;
  provenance: { label: string; local: boolean; model: string } | null;
}
export const SUMMARY_FIELDS = `id kind framework status message text droppedQuotes sections { title startTime text } quotes { itemId text } provenance { label local model }`;
