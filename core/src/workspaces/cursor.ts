import { badInput } from '../errors/app-error.ts';

/** Opaque list cursors: the offset after the last item shown, base64url-encoded. */
export const encodeOffset = (offset: number): string => Buffer.from(`o:${offset}`).toString('base64url');

export function decodeOffset(cursor: string | null | undefined): number {
  if (!cursor) return 0;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const offset = /^o:(\d{1,9})$/.exec(text)?.[1];
  if (offset === undefined) throw badInput('after', 'This list cursor is not valid. Start again from the first page.');
  return Number(offset);
}
