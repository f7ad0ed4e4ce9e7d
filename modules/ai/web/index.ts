import { defineWebExtension } from '@fieldbook/extensions-sdk/web';
import { lazy } from 'react';

// Ask and the summary panel are imported by their own paths (`@fieldbook/ai/web/ask`,
// `@fieldbook/ai/web/summary`), never from here: this file loads with every page.

const AiSettingsPage = lazy(() => import('./AiSettingsPage.tsx').then((m) => ({ default: m.AiSettingsPage })));

/** The AI module's web part: its workspace settings screen (admins). Ask and the summary panel are drawn by search and research. */
export default defineWebExtension({
  id: 'ai-assist',
  routes: [{ path: '/settings/ai', component: AiSettingsPage, permission: 'aiConfig:manage' }],
});
