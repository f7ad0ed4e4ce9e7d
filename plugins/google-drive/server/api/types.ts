/** File metadata as `files.get` answers it for the fields Fieldbook asks for. */
export interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  /** Bytes; null for Google Docs, Sheets and Slides, which have no stored size. */
  size: number | null;
  modifiedTime: string | null;
  webViewLink: string | null;
}

/** Tokens from `https://oauth2.googleapis.com/token`. */
export interface GoogleTokens {
  accessToken: string;
  /** Only on the first consent (with `access_type=offline`); a refresh keeps the old one. */
  refreshToken: string | null;
  expiresIn: number;
  scope: string;
  tokenType: string;
  /** Google's OpenID token, sent when the `email` scope was granted; it names the account. */
  idToken: string | null;
}

/** File content being read: stream it to storage rather than holding it in memory. */
export interface DriveDownload {
  contentType: string | null;
  contentLength: number | null;
  body: ReadableStream<Uint8Array>;
}
