/** One piece of a summary as it is streamed and stored: text, a section of a recording, or a quote of an item. */
export type SummaryPart =
  | { type: 'text'; text: string }
  | { type: 'section'; title: string; startTime: string | null; text: string }
  | { type: 'quote'; itemId: string; text: string };
