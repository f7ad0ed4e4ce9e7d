import { defineWebExtension } from '@fieldbook/extensions-sdk/web';
import { CopyForSlack } from './CopyForSlack.tsx';
import { SlackProjectPanel } from './SlackProjectPanel.tsx';
import { SlackSettingsPage } from './SlackSettingsPage.tsx';

/**
 * Slack's part of the app: how to set up the Slack app, what project settings show about it, and
 * a note action that copies the note's link for a Slack message.
 */
export default defineWebExtension({
  id: 'slack',
  slots: {
    'project.settings.panel/v1': SlackProjectPanel,
    'integration.settings.page/v1': SlackSettingsPage,
    'note.toolbar.action/v1': CopyForSlack,
  },
});
