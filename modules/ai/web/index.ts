import { defineWebExtension } from '@fieldbook/extensions-sdk/web';
import { lazy } from 'react';

export { AskBox } from './AskBox.tsx';
export { AiSummaryPanel, NOT_ENOUGH_CONTENT, VIEWERS_CANNOT_SUMMARIZE } from './AiSummaryPanel.tsx';

const AiSettingsPage = lazy(() => import('./AiSettingsPage.tsx').then((m) => ({ default: m.AiSettingsPage })));

/** The AI module's web part: its workspace settings screen (admins). Ask and the summary panel are drawn by search and research. */
export default defineWebExtension({
  id: 'ai-assist',
  routes: [{ path: '/settings/ai', component: AiSettingsPage, permission: 'aiConfig:manage' }],
});
