import { AppError, KeyedSlots, SlotRefused } from '@fieldbook/core';
import type { SearchEngine, SearchRequest, SearchResults } from './engine.ts';

export interface SearchTurnSettings {
  /** Searches one member runs at once. */
  perMember: number;
  /** Searches one workspace runs at once, its members together. */
  perWorkspace: number;
  /** Searches of one member that may wait for a turn; more are refused at once. */
  queuePerMember: number;
  queueSeconds: number;
}

const RETRY_AFTER_SECONDS = 5;

export const searchesBusy = (s: SearchTurnSettings) =>
  `Too many searches at once: at most ${s.perMember} of yours run at a time and ${s.queuePerMember} wait their turn. Try again in a few seconds.`;

/**
 * Searches take turns: a search reads a lot and holds a pooled connection while it does, so one
 * member (an MCP client firing a batch, an agent looping) runs at most `perMember` at once and a
 * workspace at most `perWorkspace`; the others wait a little, then are refused with a sentence
 * saying why. The search page, agents' and MCP tools and Ask all search through this engine.
 */
export class SearchTurns implements SearchEngine {
  readonly name: string;
  private readonly members: KeyedSlots;
  private readonly workspaces: KeyedSlots;

  constructor(
    private readonly engine: SearchEngine,
    private readonly settings: SearchTurnSettings,
  ) {
    this.name = engine.name;
    const queueMs = settings.queueSeconds * 1000;
    this.members = new KeyedSlots({ concurrency: settings.perMember, queue: settings.queuePerMember, queueMs });
    // The member's own line already bounds how many of theirs wait here.
    this.workspaces = new KeyedSlots({ concurrency: settings.perWorkspace, queue: Infinity, queueMs });
  }

  async search(request: SearchRequest): Promise<SearchResults> {
    // Anonymous searches (a shared link) queue together as the workspace's one anonymous member.
    const member = `${request.workspaceId}:${request.userId ?? 'anonymous'}`;
    try {
      return await this.members.run(member, () =>
        this.workspaces.run(request.workspaceId, () => this.engine.search(request)),
      );
    } catch (err) {
      if (err instanceof SlotRefused)
        throw new AppError('TOO_MANY_REQUESTS', searchesBusy(this.settings), {
          retryAfterSeconds: RETRY_AFTER_SECONDS,
        });
      throw err;
    }
  }

  index: SearchEngine['index'] = (workspaceId, documents) => this.engine.index(workspaceId, documents);
  remove: SearchEngine['remove'] = (workspaceId, refs) => this.engine.remove(workspaceId, refs);
  reindex: SearchEngine['reindex'] = (workspaceId, onProgress) => this.engine.reindex(workspaceId, onProgress);
}
