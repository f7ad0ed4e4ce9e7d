import { defineWebExtension } from '@fieldbook/extensions-sdk/web';
import { SlackProjectPanel } from './SlackProjectPanel.tsx';

/** Slack's part of the app: what project settings show about saving Slack messages. */
export default defineWebExtension({
  id: 'slack',
  slots: {
    'project.settings.panel/v1': SlackProjectPanel,
  },
});
