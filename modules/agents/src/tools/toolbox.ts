import {
  AppError,
  badInput,
  type AgentToolSource,
  type AiService,
  type ExtensionsServices,
  type Mailer,
  type RequestContext,
  type ToolResult,
} from '@fieldbook/core';
import type { ResearchServices } from '@fieldbook/research';
import type { SearchServices } from '@fieldbook/search';
import { memberOf } from './access.ts';
import { channelTools } from './channels.ts';
import type { Tool } from './define.ts';
import { messagingTools } from './messaging.ts';
import { pluginTools } from './plugins.ts';
import { researchTools } from './research.ts';
import { searchTools } from './search.ts';

export interface ToolboxDeps {
  research: ResearchServices;
  search: SearchServices;
  ai: AiService;
  mailer: Mailer;
  host: ExtensionsServices['host'];
  /** The channels module's services when it is loaded. */
  channels(): Partial<AgentToolSource> | undefined;
}

/** Every tool agents can use, and the one way to run one for a person. */
export interface AgentToolbox {
  /** Agents' own tools, the channel tools (the channels module's when loaded), and plugins' tools. */
  tools(): Tool[];
  /** Runs a tool as `member`: they must be a member, write tools need someone who may change things, input is validated. */
  runTool(member: RequestContext, name: string, input: unknown): Promise<ToolResult>;
  /** Whether `member`'s role lets them run `tool` (write tools need someone who may change things). */
  mayRun(member: RequestContext, tool: Pick<Tool, 'access'>): boolean;
}

export function createToolbox(deps: ToolboxDeps): AgentToolbox {
  const own = [
    ...researchTools(deps.research, deps.ai),
    ...searchTools(deps.search, deps.ai),
    ...messagingTools({ mailer: deps.mailer, host: deps.host }),
  ];
  // Every tool that changes anything or sends anything out asks the person first, whatever its
  // source declared: confirming is how the person, not text the model read, decides it happens.
  const tools = () =>
    [...own, ...channelTools(deps.channels()), ...pluginTools(deps.host)].map(
      (t): Tool => (t.access === 'write' && !t.needsConfirmation ? { ...t, needsConfirmation: true } : t),
    );
  const mayRun = (member: RequestContext, tool: Pick<Tool, 'access'>): boolean => {
    if (tool.access !== 'write') return true;
    try {
      member.authorize('notes:create');
      return true;
    } catch {
      return false;
    }
  };
  return {
    tools,
    mayRun,
    async runTool(member, name, input) {
      memberOf(member);
      const tool = tools().find((t) => t.name === name);
      if (!tool) throw badInput('name', `There is no tool named ${name}.`);
      if (!mayRun(member, tool))
        throw new AppError('FORBIDDEN', `Viewers cannot use ${name}: it changes things in the workspace.`);
      return tool.run(member, input);
    },
  };
}
