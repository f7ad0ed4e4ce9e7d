import { pluginWebConfig } from '@fieldbook/extensions-sdk/rsbuild';

export default pluginWebConfig({ id: 'google-drive', root: import.meta.dirname });
