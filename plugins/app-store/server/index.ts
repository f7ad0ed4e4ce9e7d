import { definePlugin } from '@fieldbook/extensions-sdk/server';
import { appStoreReviews } from './reviews.ts';

/** App Store: customer reviews imported into channels (001 §3.4, source APP_STORE). */
export default definePlugin({
  id: 'app-store',
  name: 'App Store',
  version: '1.0.0',
  sdk: '^1',
  description: 'Import App Store customer reviews of your apps into channels.',
  permissions: ['egress:api.appstoreconnect.apple.com'],
  config: {
    apiUrl: {
      env: 'APP_STORE_CONNECT_API_URL',
      description: 'App Store Connect API root',
      default: 'https://api.appstoreconnect.apple.com',
      url: true,
    },
  },
  settings: {
    issuerId: {
      kind: 'text',
      label: 'Issuer ID',
      description: 'App Store Connect → Users and Access → Integrations → App Store Connect API',
      required: true,
      maxLength: 100,
    },
    keyId: {
      kind: 'text',
      label: 'Key ID',
      description: 'The id of an API key with the Customer Support role or above',
      required: true,
      maxLength: 100,
    },
    privateKey: {
      kind: 'secret',
      label: 'Private key (.p8)',
      description: 'The whole contents of the downloaded .p8 file',
      required: true,
    },
  },
  server: {
    importSources: [appStoreReviews],
  },
});
