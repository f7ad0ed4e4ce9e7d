/**
 * Public links as other modules' screens use them (dashboards): the share dialog people know
 * from notes and insights, the signed-out fetch of a link's object, and the public page frame.
 */
export { ShareDialog } from './documents/share/ShareDialog.tsx';
export { fetchPublic, SharedObjectError } from './documents/public/shared-object.ts';
export { DeadLink, PublicFrame, usePageTitle } from './documents/public/PublicFrame.tsx';
export { SharedLinkPage } from './documents/public/SharedLinkPage.tsx';
