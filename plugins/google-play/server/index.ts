import { definePlugin } from '@fieldbook/extensions-sdk/server';
import { googlePlayReviews } from './reviews.ts';

/** Google Play: app reviews imported into channels (001 §3.4, source GOOGLE_PLAY). */
export default definePlugin({
  id: 'google-play',
  name: 'Google Play',
  version: '1.0.0',
  sdk: '^1',
  description: 'Import Google Play reviews of your Android apps into channels.',
  permissions: ['egress:googleapis.com'],
  config: {
    apiUrl: {
      env: 'GOOGLE_PLAY_API_URL',
      description: 'Android Publisher API root',
      default: 'https://androidpublisher.googleapis.com',
      url: true,
    },
    tokenUrl: {
      env: 'GOOGLE_PLAY_TOKEN_URL',
      description: "Google's OAuth token endpoint",
      default: 'https://oauth2.googleapis.com/token',
      url: true,
    },
  },
  settings: {
    clientEmail: {
      kind: 'text',
      label: 'Service account email',
      description: 'client_email of the service account’s JSON key',
      required: true,
      maxLength: 320,
    },
    privateKey: {
      kind: 'secret',
      label: 'Service account private key',
      description: 'private_key of the JSON key, from -----BEGIN PRIVATE KEY-----',
      required: true,
    },
  },
  server: {
    importSources: [googlePlayReviews],
  },
});
