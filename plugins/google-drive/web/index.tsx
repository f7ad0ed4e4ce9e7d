import { defineWebExtension } from '@fieldbook/extensions-sdk/web';
import { DriveImportPanel } from './DriveImportPanel.tsx';

/** Google Drive's part of the app: importing a Drive file from a project's settings. */
export default defineWebExtension({
  id: 'google-drive',
  slots: {
    'project.settings.panel/v1': DriveImportPanel,
  },
});
