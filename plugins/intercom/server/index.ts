import { definePlugin } from '@fieldbook/extensions-sdk/server';
import { intercomConversations } from './conversations.ts';

/** Intercom: conversations imported into channels as customer feedback (001 §3.4, source INTERCOM). */
export default definePlugin({
  id: 'intercom',
  name: 'Intercom',
  version: '1.0.0',
  sdk: '^1',
  description: 'Import Intercom conversations into channels, then only new and changed ones at each sync.',
  permissions: ['egress:intercom.io'],
  config: {
    apiUrl: {
      env: 'INTERCOM_API_URL',
      description:
        'Intercom REST API root (https://api.eu.intercom.io or https://api.au.intercom.io for those regions)',
      default: 'https://api.intercom.io',
      url: true,
    },
  },
  settings: {
    accessToken: {
      kind: 'secret',
      label: 'Access token',
      description: "Your Intercom app's access token (Developer Hub → your app → Authentication)",
      required: true,
    },
    appId: {
      kind: 'text',
      label: 'Intercom workspace id',
      description: 'The id in your Intercom inbox address, to link each data point to its conversation',
      maxLength: 100,
    },
  },
  server: {
    importSources: [intercomConversations],
  },
});
