import { defineWebExtension } from '@fieldbook/extensions-sdk/web';
import { IconRobot } from '@tabler/icons-react';
import { lazy } from 'react';

const AgentsPage = lazy(() => import('./AgentsPage.tsx').then((m) => ({ default: m.AgentsPage })));
const AgentPage = lazy(() => import('./AgentPage.tsx').then((m) => ({ default: m.AgentPage })));
const ConversationPage = lazy(() => import('./ConversationPage.tsx').then((m) => ({ default: m.ConversationPage })));

/** The agents module's web part: /agents (000 §2), an agent's settings and conversations, a conversation. */
export default defineWebExtension({
  id: 'agents',
  routes: [
    { path: '/agents', component: AgentsPage, permission: 'projects:read' },
    { path: '/agents/:agentId', component: AgentPage, permission: 'projects:read' },
    {
      path: '/agents/:agentId/conversations/:conversationId',
      component: ConversationPage,
      permission: 'projects:read',
    },
  ],
  navigation: [{ label: 'Agents', to: '/agents', permission: 'projects:read', icon: IconRobot }],
});
