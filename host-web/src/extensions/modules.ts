import type { WebExtension } from '@fieldbook/extensions-sdk/web';
import agents from '@fieldbook/agents/web';
import ai from '@fieldbook/ai/web';
import automation from '@fieldbook/automation/web';
import channels from '@fieldbook/channels/web';
import dashboards from '@fieldbook/dashboards/web';
import mcp from '@fieldbook/mcp/web';
import research from '@fieldbook/research/web';
import search from '@fieldbook/search/web';

/** Web parts of the domain modules, mounted at build time (plugins come at run time). */
export const moduleExtensions: readonly WebExtension[] = [
  search,
  research,
  automation,
  channels,
  dashboards,
  ai,
  agents,
  mcp,
];
