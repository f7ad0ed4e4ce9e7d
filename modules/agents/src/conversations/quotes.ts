import { QuoteCheckedStream, verifyProse, type ProseSource } from '@fieldbook/core';
import type { MessageRow } from './message-row.ts';

/**
 * What an agent's answer may quote: the text of the items its tools returned in this
 * conversation (a note, a highlight, a data point: what people wrote, read as the person). A
 * tool's own words (a listing, a summary a model wrote) are never a source a quote is checked against.
 */
function quotable(rows: readonly MessageRow[]): ProseSource[] {
  return rows.flatMap((r) =>
    r.type === 'RESULT'
      ? (r.tool?.items ?? []).flatMap((i) => (i.text ? [{ id: i.id, text: i.text, title: i.title }] : []))
      : [],
  );
}

/** An agent's answer with every quotation its tools' items do not hold replaced, and how many were. */
export function verifiedAnswer(answer: string, rows: readonly MessageRow[]): { content: string; dropped: number } {
  const checked = verifyProse(answer, quotable(rows));
  return { content: checked.text, dropped: checked.dropped };
}

/** The model's text as it streams, each quotation held back until it is closed and checked the same way. */
export function checkedStream(rows: readonly MessageRow[], send: (text: string) => void): QuoteCheckedStream {
  return new QuoteCheckedStream(quotable(rows), send);
}
