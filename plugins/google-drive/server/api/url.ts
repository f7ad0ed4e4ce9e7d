import { DriveUrlError } from './errors.ts';

/** What a Drive link points at, as its URL tells (a plain file link does not say which kind). */
export type DriveLinkKind = 'file' | 'document' | 'spreadsheet' | 'presentation' | 'folder';

export interface DriveLink {
  id: string;
  kind: DriveLinkKind;
}

// Drive ids are long URL-safe strings; a short segment (e.g. the `e` of a published link) is not one.
const FILE_ID = /^[A-Za-z0-9_-]{10,}$/;
const DOCS_KINDS: Record<string, DriveLinkKind> = {
  document: 'document',
  spreadsheets: 'spreadsheet',
  presentation: 'presentation',
};

/**
 * Reads a Google Drive or Docs link:
 * `drive.google.com/file/d/{id}/...`, `drive.google.com/open?id={id}`, `drive.google.com/uc?id={id}`,
 * `drive.google.com/drive/folders/{id}`, `docs.google.com/{document|spreadsheets|presentation}/d/{id}/...`,
 * `drive.usercontent.google.com/download?id={id}`, with the `/u/{n}` account and `/a/{domain}` forms.
 * Anything else throws `Not a Google Drive URL`.
 */
export function parseDriveUrl(input: string): DriveLink {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new DriveUrlError();
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new DriveUrlError();
  if (url.username || url.password || url.port) throw new DriveUrlError();

  const segments = pathSegments(url.pathname);
  const queryId = url.searchParams.get('id');

  const link = ((): DriveLink | null => {
    switch (url.hostname) {
      case 'drive.google.com': {
        const [first, second, third] = segments;
        if (first === 'file' && second === 'd' && third) return { id: third, kind: 'file' };
        if ((first === 'open' || first === 'uc') && segments.length === 1 && queryId)
          return { id: queryId, kind: 'file' };
        if (first === 'drive') {
          const folders = segments.indexOf('folders');
          const id = folders > 0 ? segments[folders + 1] : undefined;
          if (id) return { id, kind: 'folder' };
        }
        return null;
      }
      case 'docs.google.com': {
        const [first, second, third] = segments;
        const kind = first ? DOCS_KINDS[first] : undefined;
        return kind && second === 'd' && third ? { id: third, kind } : null;
      }
      case 'drive.usercontent.google.com':
        return (segments[0] === 'download' || segments[0] === 'uc') && segments.length === 1 && queryId
          ? { id: queryId, kind: 'file' }
          : null;
      default:
        return null;
    }
  })();
  if (!link || !FILE_ID.test(link.id)) throw new DriveUrlError();
  return link;
}

/** Path segments without the `/a/{domain}` (Workspace) prefix and `/u/{n}` (signed-in account) parts. */
function pathSegments(pathname: string): string[] {
  const raw = pathname.split('/').filter(Boolean);
  const start = raw[0] === 'a' && raw.length > 2 ? 2 : 0;
  const segments: string[] = [];
  for (let index = start; index < raw.length; index += 1) {
    if (raw[index] === 'u' && /^\d+$/.test(raw[index + 1] ?? '')) index += 1;
    else segments.push(raw[index]!);
  }
  return segments;
}
