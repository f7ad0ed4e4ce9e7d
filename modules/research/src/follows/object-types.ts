/** What can be followed (000 §3 "follow options"). */
export const FOLLOW_OBJECT_TYPES = ['PROJECT', 'INSIGHT', 'TAG'] as const;
export type FollowObjectType = (typeof FOLLOW_OBJECT_TYPES)[number];
