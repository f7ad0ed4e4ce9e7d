import { cutGraphemes } from '@fieldbook/core';

/** Folder names longer than this are cut in a folder path (002 §9). */
export const FOLDER_PATH_NAME_MAX = 26;
/** Paths with more segments than this show only the first and last (002 §9). */
export const FOLDER_PATH_SEGMENTS_MAX = 3;
export const FOLDER_PATH_SEPARATOR = ' / ';
const ELLIPSIS = '...';

/**
 * One folder name as a path shows it: cut at 26 characters, marked with an ellipsis when cut. A
 * character is what people see as one (an emoji with its modifiers, a letter with its accents).
 */
export function folderPathName(name: string): string {
  return cutGraphemes(name, FOLDER_PATH_NAME_MAX, ELLIPSIS);
}

/**
 * The segments a folder path shows, outermost first: every name cut at 26 characters, and with
 * more than 3 segments only the first, "...", and the last.
 */
export function folderPathSegments(names: readonly string[]): string[] {
  const cut = names.map(folderPathName);
  return cut.length > FOLDER_PATH_SEGMENTS_MAX ? [cut[0]!, ELLIPSIS, cut[cut.length - 1]!] : cut;
}

/** The folder path as one line of text, e.g. "Research / ... / Interviews". */
export function folderPath(names: readonly string[]): string {
  return folderPathSegments(names).join(FOLDER_PATH_SEPARATOR);
}
