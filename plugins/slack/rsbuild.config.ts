import { pluginWebConfig } from '@fieldbook/extensions-sdk/rsbuild';

export default pluginWebConfig({ id: 'slack', root: import.meta.dirname });
