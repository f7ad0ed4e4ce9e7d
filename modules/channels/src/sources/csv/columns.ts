import { CHANNEL_LIMITS } from '../../limits.ts';

/**
 * Why a CSV file's columns cannot be imported, or null: more columns than a file may have, or a
 * name longer than a field's label can be. Checked by the preview and by the import alike.
 */
export function columnsProblem(headers: readonly string[]): string | null {
  if (headers.length > CHANNEL_LIMITS.csvColumns)
    return `A CSV file can have at most ${CHANNEL_LIMITS.csvColumns} columns; this one has ${headers.length}.`;
  const long = headers.findIndex((h) => [...h].length > CHANNEL_LIMITS.fieldLabel);
  if (long >= 0)
    return `A column name can be at most ${CHANNEL_LIMITS.fieldLabel} characters long; column ${long + 1}'s has ${[...headers[long]!].length}.`;
  return null;
}
