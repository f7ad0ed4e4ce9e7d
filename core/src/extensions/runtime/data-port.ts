import type { Knex } from 'knex';
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
  createNote(
    ctx: RequestContext,
    draft: { projectId: string; title: string; content: RichTextDoc },
  ): Promise<{ id: string; projectId: string; title: string }>;
  getNote(
    ctx: RequestContext,
    noteId: string,
  ): Promise<{ id: string; projectId: string; title: string; text: string } | null>;
  /**
   * Runs `fn` in one transaction of the member's with `createNotes` bound to it: each draft's
   * project checked once, one insert for them all, their events published together. What else
   * `fn` writes (the plugin's idempotency keys, the deliveries marked handled) commits with them.
   */
  withNotes<T>(
    ctx: RequestContext,
    fn: (
      trx: Knex.Transaction,
      createNotes: (drafts: ReadonlyArray<NoteDraftRow>) => Promise<CreatedNote[]>,
    ) => Promise<T>,
  ): Promise<T>;
}

export interface NoteDraftRow {
  projectId: string;
  title: string;
  content: RichTextDoc;
}

/** A note made, in the order of its draft. */
export interface CreatedNote {
  id: string;
  projectId: string;
  title: string;
}
