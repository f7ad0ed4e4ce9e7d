/** Where the README explains how a server's operator adds a plugin. */
export const PLUGIN_DOCS_URL = 'https://github.com/fieldbook/fieldbook/blob/main/README.md#plugins';
