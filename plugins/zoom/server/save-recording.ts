import type { InstallationContext } from '@fieldbook/extensions-sdk/server';
import {
  findTranscriptFile,
  parseWebVtt,
  WebVttError,
  ZoomApiError,
  type ZoomRecording,
  type ZoomRecordingCompletedEvent,
  type TranscriptTurn,
} from './api/index.ts';
import { withAccessToken, zoomClient } from './zoom.ts';

type RecordingContext = InstallationContext<
  'notes:write' | 'projects:read',
  { projectId: { kind: 'project'; label: string; required: true } }
>;

/** When the meeting started, in the meeting's time zone when Zoom names one. */
export function recordedOn(recording: Pick<ZoomRecording, 'start_time'> & { timezone?: unknown }): string {
  const start = new Date(recording.start_time);
  if (Number.isNaN(start.getTime())) return 'Recorded on Zoom';
  const format = (timeZone: string) =>
    `${new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone }).format(start)} (${timeZone})`;
  const zone = typeof recording.timezone === 'string' && recording.timezone !== '' ? recording.timezone : 'UTC';
  try {
    return `Recorded ${format(zone)}`;
  } catch {
    // An unknown time zone name: the time in UTC still says when.
    return `Recorded ${format('UTC')}`;
  }
}

/** The transcript as a note's text: the date, then one paragraph per speaker turn. */
export function transcriptText(recording: ZoomRecording, turns: TranscriptTurn[]): string {
  return [
    recordedOn(recording),
    ...turns.map((turn) => (turn.speaker ? `${turn.speaker}: ${turn.text}` : turn.text)),
  ].join('\n\n');
}

/** What a recording without a usable transcript still tells: when, how long, which files, where to watch it. */
export function detailsText(recording: ZoomRecording, reason: string): string {
  const files = [...new Set(recording.recording_files.map((file) => file.file_type))].join(', ');
  return [
    recordedOn(recording),
    recording.duration ? `Duration: ${recording.duration} minute${recording.duration === 1 ? '' : 's'}` : null,
    files ? `Recording files: ${files}` : null,
    recording.share_url ? `Watch on Zoom: ${recording.share_url}` : null,
    reason,
  ]
    .filter((line): line is string => line !== null)
    .join('\n\n');
}

async function transcriptTurns(
  ctx: RecordingContext,
  event: ZoomRecordingCompletedEvent,
): Promise<TranscriptTurn[] | string> {
  const file = findTranscriptFile(event.payload.object);
  if (!file) return 'No transcript came with this recording.';
  const client = zoomClient(ctx);
  // The event's download token works for 24 hours without the account's own tokens.
  const vtt = event.download_token
    ? await client.downloadTranscript(file.download_url, event.download_token)
    : await withAccessToken(ctx, (token) => client.downloadTranscript(file.download_url, token));
  if (vtt === null) return 'No transcript came with this recording: Zoom is no longer connected.';
  try {
    const turns = parseWebVtt(vtt);
    return turns.length ? turns : 'The transcript of this recording is empty.';
  } catch (err) {
    if (err instanceof WebVttError) return 'The transcript of this recording could not be read.';
    throw err;
  }
}

/**
 * Saves a finished recording as a note in the project the admins chose, once per meeting
 * (`zoom:{meeting uuid}`): titled by the topic, its text the transcript's speaker turns.
 */
export async function saveRecording(ctx: RecordingContext, event: ZoomRecordingCompletedEvent): Promise<void> {
  const recording = event.payload.object;
  const projectId = ctx.installation.settings.projectId;
  const project = projectId ? (await ctx.projects.list()).find((p) => p.id === projectId) : undefined;
  if (!project?.enabled) {
    ctx.log.warn('a Zoom recording arrived but no project enabled for Zoom is chosen', { meeting: recording.id });
    return;
  }
  let turns: TranscriptTurn[] | string;
  try {
    turns = await transcriptTurns(ctx, event);
  } catch (err) {
    // A file Zoom has since deleted or refuses is not worth retrying; anything else (network) is.
    if (!(err instanceof ZoomApiError) || err.status >= 500) throw err;
    ctx.log.warn('the transcript of a Zoom recording could not be downloaded', { code: err.code, status: err.status });
    turns = 'The transcript of this recording could not be downloaded from Zoom.';
  }
  await ctx.notes.create({
    projectId: project.id,
    title: recording.topic?.trim() || 'Zoom meeting',
    text: typeof turns === 'string' ? detailsText(recording, turns) : transcriptText(recording, turns),
    key: `zoom:${recording.uuid}`,
  });
}
