import { defineWebExtension } from '@fieldbook/extensions-sdk/web';
import { SlackProjectPanel } from './SlackProjectPanel.tsx';
import { SlackSettingsPage } from './SlackSettingsPage.tsx';

/** Slack's part of the app: how to set up the Slack app, and what project settings show about it. */
export default defineWebExtension({
  id: 'slack',
  slots: {
    'project.settings.panel/v1': SlackProjectPanel,
    'integration.settings.page/v1': SlackSettingsPage,
  },
});
