import type { FollowObjectType } from './object-types.ts';

/** The follow options as GraphQL names them (000 §3 notification options). */
export type FollowOptionKey = 'allCommentsEnabled' | 'insightsPublishedEnabled' | 'allChangesEnabled';

/**
 * What each follow option brings, per kind of object, in the words the follow menu and the
 * notification settings show. An option a kind has no use for is absent (a tag is never
 * published). The fan-out (fanout.ts, changes.ts, tag-applied.ts, comments/created.ts) goes by
 * exactly these meanings.
 */
export const FOLLOW_OPTION_LABELS: Record<FollowObjectType, ReadonlyArray<{ key: FollowOptionKey; label: string }>> = {
  PROJECT: [
    { key: 'allCommentsEnabled', label: 'Comments on its notes and insights' },
    { key: 'insightsPublishedEnabled', label: 'Insights published in it' },
    { key: 'allChangesEnabled', label: 'Notes and insights added to it' },
  ],
  INSIGHT: [
    { key: 'allCommentsEnabled', label: 'Comments on it' },
    { key: 'insightsPublishedEnabled', label: 'When it is published' },
    { key: 'allChangesEnabled', label: 'Edits to it (at most once a day)' },
  ],
  TAG: [
    { key: 'allChangesEnabled', label: 'Each time it is applied to a highlight or note' },
    { key: 'allCommentsEnabled', label: 'Comments on notes tagged with it' },
  ],
};

/** A new follow's options: all but "all changes" on, except for a tag, whose news is being applied. */
export function defaultOptions(type: FollowObjectType): Record<FollowOptionKey, boolean> {
  return { allCommentsEnabled: true, insightsPublishedEnabled: true, allChangesEnabled: type === 'TAG' };
}
