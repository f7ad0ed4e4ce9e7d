import type { Json } from '../sources/contract.ts';

export const CHANNEL_IMPORT_QUEUE = 'channels.import';

export type ImportStatus = 'QUEUED' | 'RUNNING' | 'COMPLETED' | 'FAILED';

export interface ImportFailure {
  line?: number;
  externalId?: string;
  reason: string;
}

export interface ChannelImportRow {
  id: string;
  workspace_id: string;
  channel_id: string;
  dataset_id: string;
  status: ImportStatus;
  cursor: Json;
  records_read: number;
  records_created: number;
  records_updated: number;
  records_skipped: number;
  records_failed: number;
  failures: ImportFailure[];
  error: string | null;
  /** What started the run: UPLOAD (a file), CONNECT, MANUAL ("sync now") or SCHEDULED (a refresh). */
  trigger?: string;
  file: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

/** A job names the run; everything else is read from the run's row. */
export interface ChannelImportJob {
  importId: string;
  workspaceId: string;
  userId: string;
}

/** What the API returns of a run: everything but the file. */
export const IMPORT_COLUMNS = [
  'id',
  'workspace_id',
  'channel_id',
  'dataset_id',
  'status',
  'cursor',
  'records_read',
  'records_created',
  'records_updated',
  'records_skipped',
  'records_failed',
  'failures',
  'error',
  'trigger',
  'created_by',
  'created_at',
  'updated_at',
  'completed_at',
] as const;
