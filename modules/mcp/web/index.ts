import { defineWebExtension } from '@fieldbook/extensions-sdk/web';
import { lazy } from 'react';

const McpSettingsPanel = lazy(() => import('./McpSettingsPanel.tsx').then((m) => ({ default: m.McpSettingsPanel })));

/** The MCP module's web part: its section of the AI settings (the URL, how to connect, and whether clients may make changes). */
export default defineWebExtension({
  id: 'mcp',
  slots: { 'settings.ai.panel/v1': McpSettingsPanel },
});
