/**
 * The data retention rules (002 §3 retention choices, 002 §9 retention options):
 *
 * - A workspace admin chooses 30, 60, 90, 180 or 365 days, or turns retention off (the default).
 * - Age is counted from when a note or insight was created, not from its last edit or from when
 *   it went to the trash: retention bounds how long research data is kept at all, and an edit
 *   does not make a recording or its participants' words any younger.
 * - Nothing is deleted without warning. Once a day the job announces to the workspace admins
 *   (notification `data_retention_deletion_warning`) the notes and insights that reach the end
 *   of the period within the next 7 days, and the date they will be deleted: 7 days later. A
 *   note or insight is deleted for good (with its highlights, comments, tags and field values)
 *   only once a warning announced it at least 7 days before and it is past the period. So when
 *   retention is first turned on, or shortened, everything already past the period goes 7 days
 *   after the first warning, not at once. Changing or turning off the period withdraws earlier
 *   warnings; the next run announces afresh.
 * - Separately, in every workspace, the trash keeps an item for 30 days: projects, folders,
 *   notes, insights and highlights that have been in the trash longer are deleted for good.
 */
export const RETENTION_DAYS = [30, 60, 90, 180, 365] as const;
export type RetentionDays = (typeof RETENTION_DAYS)[number];

/** How many days ahead admins are warned, and so how long at least between warning and deletion. */
export const WARNING_DAYS = 7;
/** How long the trash keeps an item. */
export const TRASH_DAYS = 30;

/** The notification type of 002 §3 "data retention deletion warning". */
export const DATA_RETENTION_WARNING = 'data_retention_deletion_warning';

const DAY_MS = 24 * 60 * 60 * 1000;

export const daysBefore = (now: Date, days: number): Date => new Date(now.getTime() - days * DAY_MS);
export const daysAfter = (now: Date, days: number): Date => new Date(now.getTime() + days * DAY_MS);

export function isRetentionDays(value: number): value is RetentionDays {
  return (RETENTION_DAYS as readonly number[]).includes(value);
}

export interface RetentionWindows {
  /** Items created before this are past the retention period. */
  expiredBefore: Date;
  /** Items created before this reach the end of the period within the warning days. */
  warnBefore: Date;
  /** When items announced now may be deleted. */
  deleteAfter: Date;
  /** Trash items deleted before this have been in the trash longer than it keeps them. */
  trashBefore: Date;
}

export function retentionWindows(now: Date, retentionDays: number): RetentionWindows {
  return {
    expiredBefore: daysBefore(now, retentionDays),
    warnBefore: daysBefore(now, retentionDays - WARNING_DAYS),
    deleteAfter: daysAfter(now, WARNING_DAYS),
    trashBefore: daysBefore(now, TRASH_DAYS),
  };
}

/**
 * Items created before the returned time may be deleted now: those both past the period and
 * announced by a warning whose deletion date has come. Null when nothing may be deleted.
 */
export function deletionCutoff(expiredBefore: Date, announcedCutoff: Date | null): Date | null {
  if (!announcedCutoff) return null;
  return announcedCutoff < expiredBefore ? announcedCutoff : expiredBefore;
}

/** The UTC day of a run, so that at most one warning goes out per workspace and day. */
export const runDay = (now: Date): string => now.toISOString().slice(0, 10);
