/** Tokens from `POST https://zoom.us/oauth/token`. Zoom rotates the refresh token on each refresh. */
export interface ZoomTokens {
  accessToken: string;
  refreshToken: string;
  /** Seconds the access token lives (about an hour). */
  expiresIn: number;
  scope: string;
  tokenType: string;
  /** The regional API root Zoom names for this account, when it does. */
  apiUrl: string | null;
}

/** `GET /users/me` (fields Fieldbook reads). */
export interface ZoomUser {
  id: string;
  account_id: string;
  email: string;
  first_name?: string;
  last_name?: string;
  display_name?: string;
  timezone?: string;
}

/** Zoom's recording file types; Zoom may add more. */
export type ZoomRecordingFileType =
  | 'MP4'
  | 'M4A'
  | 'TRANSCRIPT'
  | 'CHAT'
  | 'CC'
  | 'CSV'
  | 'TIMELINE'
  | 'SUMMARY'
  | (string & {});

export interface ZoomRecordingFile {
  id: string;
  meeting_id?: string;
  recording_start?: string;
  recording_end?: string;
  file_type: ZoomRecordingFileType;
  /** `MP4`, `M4A`, `VTT`, `TXT`, `JSON`, ... */
  file_extension?: string;
  file_size?: number;
  play_url?: string;
  download_url: string;
  status?: 'completed' | 'processing' | (string & {});
  /** `audio_only`, `shared_screen_with_speaker_view`, `audio_transcript`, ... */
  recording_type?: string;
}

/** A meeting's cloud recording, as `GET /meetings/{meetingId}/recordings` and webhooks describe it. */
export interface ZoomRecording {
  uuid: string;
  id: number | string;
  account_id?: string;
  host_id?: string;
  topic: string;
  start_time: string;
  duration?: number;
  total_size?: number;
  recording_count?: number;
  share_url?: string;
  recording_files: ZoomRecordingFile[];
  /** Present when asked for with `include_fields=download_access_token`. */
  download_access_token?: string;
}

/** A file being downloaded: stream it to storage rather than holding it in memory. */
export interface ZoomDownload {
  contentType: string | null;
  contentLength: number | null;
  body: ReadableStream<Uint8Array>;
}
