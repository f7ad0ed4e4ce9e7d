import { PluginInputError, type InstallationContext, type JsonObject } from '@fieldbook/extensions-sdk/server';
import {
  DriveApiError,
  DriveUrlError,
  GOOGLE_MIME_TYPES,
  parseDriveUrl,
  type DriveClient,
  type DriveDownload,
  type DriveFile,
} from './api/index.ts';
import { driveClient, withAccessToken } from './drive.ts';

export type DriveContext = InstallationContext<'notes:write' | 'projects:read'>;

export const IMPORT_JOB = 'importFile';

/** Text read from Drive for one note; a larger file is cut here rather than held whole. */
const MAX_TEXT_BYTES = 2 * 1024 * 1024;

/** An error for the person using the form: its message is shown as is, next to `field` when there is one. */
function userError(
  code: 'BAD_USER_INPUT' | 'INVALID_OPERATION' | 'FORBIDDEN',
  message: string,
  field?: string,
): PluginInputError {
  return new PluginInputError(message, { code, field });
}

const MAX_URL = 2000;

/**
 * `googleDriveImport`: checks the link, the person's own Drive connection and the project, then
 * queues the import (reading a large file takes longer than a request should).
 */
export async function importMutation(
  args: Record<string, unknown>,
  ctx: DriveContext,
): Promise<{ queued: boolean; fileId: string }> {
  const url = typeof args.url === 'string' ? args.url : '';
  const projectId = typeof args.projectId === 'string' ? args.projectId : '';
  if (url.length > MAX_URL) throw userError('BAD_USER_INPUT', `The link can be at most ${MAX_URL} characters.`, 'url');
  let fileId: string;
  try {
    const link = parseDriveUrl(url);
    if (link.kind === 'folder')
      throw userError('BAD_USER_INPUT', 'That link is a Google Drive folder; link to one file instead.', 'url');
    fileId = link.id;
  } catch (err) {
    if (err instanceof DriveUrlError) throw userError('BAD_USER_INPUT', 'Not a Google Drive URL', 'url');
    throw err;
  }
  if (!(await ctx.userConnection())) {
    throw userError(
      'INVALID_OPERATION',
      'Connect Google Drive first: open your integrations in Settings and connect your Google account.',
    );
  }
  const project = (await ctx.projects.list()).find((p) => p.id === projectId);
  if (!project) throw userError('BAD_USER_INPUT', 'That project does not exist or you cannot see it.', 'projectId');
  if (!project.enabled)
    throw userError(
      'FORBIDDEN',
      'Google Drive is not enabled on that project; a project manager can enable it in the project’s settings.',
      'projectId',
    );
  await ctx.jobs.send(IMPORT_JOB, { projectId: project.id, fileId }, { singletonKey: `${project.id}:${fileId}` });
  return { queued: true, fileId };
}

/** The start of a download as text, up to `maxBytes`; the rest is left unread. */
export async function readText(
  download: DriveDownload,
  maxBytes = MAX_TEXT_BYTES,
): Promise<{ text: string; cut: boolean }> {
  const reader = download.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  for (let part = await reader.read(); !part.done; part = await reader.read()) {
    const room = maxBytes - size;
    chunks.push(part.value.byteLength > room ? part.value.subarray(0, room) : part.value);
    size += Math.min(part.value.byteLength, room);
    if (size >= maxBytes) {
      cut = true;
      await reader.cancel();
      break;
    }
  }
  // A cut may split a character; the decoder drops the broken tail.
  return { text: new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks)).replace(/\uFFFD$/, ''), cut };
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|csv|x-subrip|x-yaml|yaml|rtf|markdown)\b)/;

/** Whether a stored file is text a note can hold (as opposed to PDFs, media and office files). */
export function isTextFile(mimeType: string): boolean {
  return TEXT_TYPES.test(mimeType);
}

type Content = { kind: 'text'; text: string; cut: boolean } | { kind: 'link'; reason: string };

/**
 * What a file becomes: Docs and Slides export as plain text, Sheets as CSV (a line per row),
 * stored text files are downloaded; anything else (PDFs, drawings, media) is linked.
 */
async function contentOf(client: DriveClient, token: string, file: DriveFile): Promise<Content> {
  switch (file.mimeType) {
    case GOOGLE_MIME_TYPES.document:
    case GOOGLE_MIME_TYPES.presentation:
      return { kind: 'text', ...(await readText(await client.exportFile(token, file.id, 'text/plain'))) };
    case GOOGLE_MIME_TYPES.spreadsheet:
      return { kind: 'text', ...(await readText(await client.exportFile(token, file.id, 'text/csv'))) };
    default:
      if (isTextFile(file.mimeType))
        return { kind: 'text', ...(await readText(await client.download(token, file.id))) };
      if (file.mimeType === 'application/pdf' || file.mimeType === GOOGLE_MIME_TYPES.drawing)
        return { kind: 'link', reason: 'Its pages stay in Google Drive.' };
      return { kind: 'link', reason: 'Fieldbook cannot read this kind of file as text.' };
  }
}

function driveLink(file: DriveFile): string {
  return file.webViewLink ?? `https://drive.google.com/file/d/${encodeURIComponent(file.id)}/view`;
}

/** The note a file becomes; its text ends with where it came from. */
export function noteText(file: DriveFile, content: Content): string {
  const source = `Imported from Google Drive: ${driveLink(file)}`;
  if (content.kind === 'link') return `${file.name || 'This file'} is in Google Drive. ${content.reason}\n\n${source}`;
  const body = content.text.replace(/^\uFEFF/, '').trim();
  return [
    body || '(The file is empty.)',
    content.cut ? 'Only the beginning of the file was imported: it is longer than a note holds.' : null,
    source,
  ]
    .filter((part): part is string => part !== null)
    .join('\n\n');
}

/**
 * The queued import, as the person who asked: reads the file's metadata by id, its content as
 * above, and creates the note once per version of the file (`drive:{fileId}:{modifiedTime}`).
 */
export async function importJob(ctx: DriveContext, data: JsonObject): Promise<void> {
  const projectId = typeof data.projectId === 'string' ? data.projectId : null;
  const fileId = typeof data.fileId === 'string' ? data.fileId : null;
  if (!projectId || !fileId) return;
  const connection = await ctx.userConnection();
  if (!connection) {
    ctx.log.warn('a Google Drive import was dropped: the person disconnected Google Drive', { fileId });
    return;
  }
  const client = driveClient(ctx);
  try {
    const { file, content } = await withAccessToken(ctx, connection, async (token) => {
      const file = await client.getFile(token, fileId);
      return { file, content: await contentOf(client, token, file) };
    });
    await ctx.notes.create({
      projectId,
      title: file.name || 'Google Drive file',
      text: noteText(file, content),
      key: `drive:${file.id}:${file.modifiedTime ?? 'unknown'}`,
    });
  } catch (err) {
    // A file the person cannot see, or Google refusing the account, will not change on retry.
    if (err instanceof DriveApiError && err.status >= 400 && err.status < 500 && err.status !== 429) {
      ctx.log.warn('a Google Drive file could not be imported', { fileId, code: err.code, status: err.status });
      return;
    }
    throw err;
  }
}
