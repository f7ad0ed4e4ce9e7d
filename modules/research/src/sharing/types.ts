import type { Knex } from 'knex';
import type { Caller } from '../projects/access.ts';
import type { ShareRow } from './share-row.ts';

/**
 * A share object type owned by another module (dashboards): research keeps the links (tokens,
 * revoking, the workspace's public links setting, the audit log), the owner says who may share
 * an object and what its link shows. Its GraphQL enum value and public type are the owner's
 * (`extend enum ShareObjectType`, `extend union PublicObject`).
 */
export interface ShareTypeProvider {
  /** The share object type of 000 §3, e.g. `dashboard`. */
  type: string;
  /** NOT_FOUND unless the caller may read the object (checked when linking, listing, revoking). */
  assertReadable(trx: Knex.Transaction, caller: Caller, objectId: string): Promise<void>;
  /**
   * What a live link shows, or null when the object is gone (the link then reads as dead). Run
   * after the link is checked live, outside research's transaction, so the owner may read with
   * the access of whoever made the link.
   */
  publicObject(share: ShareRow): Promise<{ kind: string } | null>;
  /** The page a link opens, e.g. `/p/dashboard/{token}`. */
  path(token: string): string;
}

/** The share types other modules added to one running instance of research. */
export class ShareTypes {
  private readonly byType = new Map<string, ShareTypeProvider>();

  register(provider: ShareTypeProvider): void {
    this.byType.set(provider.type, provider);
  }

  get(type: string): ShareTypeProvider | undefined {
    return this.byType.get(type);
  }

  types(): string[] {
    return [...this.byType.keys()];
  }
}

// One registry per loaded research module (keyed by its module context), so two servers in one
// process (tests) never see each other's types.
const registries = new WeakMap<object, ShareTypes>();

export function shareTypesOf(moduleCtx: object): ShareTypes {
  let found = registries.get(moduleCtx);
  if (!found) registries.set(moduleCtx, (found = new ShareTypes()));
  return found;
}
