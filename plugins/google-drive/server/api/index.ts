export { DriveApiError, DriveUrlError } from './errors.ts';
export {
  createDriveClient,
  exportMimeTypeFor,
  GOOGLE_API_BASE_URL,
  GOOGLE_MIME_TYPES,
  GOOGLE_OAUTH_BASE_URL,
} from './client.ts';
export type { DriveClient, DriveClientOptions, DriveContent, GoogleAppCredentials } from './client.ts';
export { parseDriveUrl } from './url.ts';
export type { DriveLink, DriveLinkKind } from './url.ts';
export type * from './types.ts';
