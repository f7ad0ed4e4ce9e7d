import type { RichTextDoc } from '@fieldbook/extensions-sdk/server';
import type { RequestContext } from '../../kernel/request-context.ts';
import type { PermissionLevel } from '../../permissions/levels.ts';

/**
 * What plugins' data capabilities are made of. Core owns the plugin host but not the research
 * content, so the research module fills this port in (an extension point, as Backstage has them);
 * every call runs as a member, under the same authorization as that member's own requests.
 */
export interface PluginDataPort {
  /** The member's level on a project; null when it does not exist or they cannot see it. */
  projectLevel(ctx: RequestContext, projectId: string): Promise<PermissionLevel | null>;
  /** Projects the member can read. */
  listProjects(ctx: RequestContext): Promise<Array<{ id: string; title: string }>>;
  createNote(ctx: RequestContext, draft: { projectId: string; title: string; content: RichTextDoc }): Promise<{ id: string; projectId: string; title: string }>;
  getNote(ctx: RequestContext, noteId: string): Promise<{ id: string; projectId: string; title: string; text: string } | null>;
}
