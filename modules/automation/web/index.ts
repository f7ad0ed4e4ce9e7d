import { defineWebExtension } from '@fieldbook/extensions-sdk/web';
import { IconBolt } from '@tabler/icons-react';
import { lazy } from 'react';

const AutomationsPage = lazy(() => import('./list/AutomationsPage.tsx').then((m) => ({ default: m.AutomationsPage })));
const AutomationPage = lazy(() => import('./editor/AutomationPage.tsx').then((m) => ({ default: m.AutomationPage })));

/** The automation module's web part: /automation (000 §2), an automation's editor, history and dry run. */
export default defineWebExtension({
  id: 'automation',
  routes: [
    { path: '/automation', component: AutomationsPage, permission: 'projects:read' },
    { path: '/automation/new', component: AutomationPage, permission: 'projects:read' },
    { path: '/automation/:automationId', component: AutomationPage, permission: 'projects:read' },
  ],
  navigation: [{ label: 'Automation', to: '/automation', permission: 'projects:read', icon: IconBolt }],
});
