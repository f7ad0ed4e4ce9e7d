import type { Config } from '../../../core/src/config.ts';
import agents from '../../../modules/agents/src/index.ts';
import automation from '../../../modules/automation/src/index.ts';
import ai from '../../../modules/ai/src/index.ts';
import research from '../../../modules/research/src/index.ts';
import search from '../../../modules/search/src/index.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import type { FieldbookOptions } from '../../../core/src/server.ts';

/** A Fieldbook with research, search, AI and agents (channels not loaded; automation on request), for one test file. */
export async function startAgentsServer(
  overrides: Partial<Config> = {},
  opts: Omit<FieldbookOptions, 'config'> = {},
  withAutomation = false,
): Promise<{ server: TestServer; mail: TestMailServer }> {
  const mail = await startMailServer();
  const modules = withAutomation ? [research, search, ai, agents, automation] : [research, search, ai, agents];
  const server = await startTestServer(
    { smtpUrl: mail.url, ...overrides },
    { modules, discoverPlugins: false, ...opts },
  );
  return { server, mail };
}

export const RUN_TOOL = `mutation($name: String!, $input: JSON) { runAgentTool(name: $name, input: $input) { text items { type id title url } data } }`;
export interface ToolAnswer {
  runAgentTool: {
    text: string;
    items: Array<{ type: string; id: string; title: string | null; url: string | null }>;
    data: unknown;
  };
}
