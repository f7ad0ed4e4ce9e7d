import { definePlugin } from '@fieldbook/extensions-sdk/server';
import { zendeskTickets } from './tickets.ts';

/** Zendesk: tickets imported into channels as customer feedback (001 §3.4, source ZENDESK). */
export default definePlugin({
  id: 'zendesk',
  name: 'Zendesk',
  version: '1.0.0',
  sdk: '^1',
  description: 'Import Zendesk support tickets into channels, then only new and changed ones at each sync.',
  permissions: ['egress:zendesk.com'],
  config: {
    apiUrl: {
      env: 'ZENDESK_API_URL',
      description:
        'Zendesk API root to call instead of https://{subdomain}.zendesk.com (a proxy, or a local server in tests)',
      url: true,
    },
  },
  settings: {
    subdomain: {
      kind: 'text',
      label: 'Zendesk subdomain',
      description: 'The part before .zendesk.com, e.g. acme',
      required: true,
      maxLength: 100,
    },
    email: {
      kind: 'text',
      label: 'Agent email address',
      description: 'The Zendesk user the API token belongs to',
      required: true,
      maxLength: 320,
    },
    apiToken: {
      kind: 'secret',
      label: 'API token',
      description: 'Admin Center → Apps and integrations → Zendesk API → API tokens',
      required: true,
    },
  },
  server: {
    importSources: [zendeskTickets],
  },
});
