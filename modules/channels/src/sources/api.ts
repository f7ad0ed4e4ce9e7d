import type { ImportSource } from './contract.ts';

/**
 * Data points pushed over the REST API with an API token. Nothing is listed: records arrive in
 * requests, and each channel has one API dataset they all go into.
 */
export const apiSource: ImportSource = {
  kind: 'API',
  label: 'API',
  settings: [],
  fieldTypes: () => ({}),
  checkSettings: () => undefined,
  // eslint-disable-next-line require-yield
  async *list() {
    return;
  },
};
