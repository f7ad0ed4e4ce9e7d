import { AppError } from '../errors/app-error.ts';
import { type EntitlementSet, type Feature, FEATURES, LIMITS, type LimitName } from './catalog.ts';

/**
 * Where a workspace's entitlements come from: the Self-hosted plan by default, the billing module's
 * plans, add-ons and subscriptions when it is loaded.
 */
export interface EntitlementSource {
  entitlements(workspaceId: string): Promise<EntitlementSet>;
}

/** The one question every module asks before it offers a gated feature or adds to a limited count. */
export interface Entitlements {
  of(workspaceId: string): Promise<EntitlementSet>;
  can(workspaceId: string, feature: Feature): Promise<boolean>;
  limit(workspaceId: string, name: LimitName): Promise<number | null>;
  /** Throws FORBIDDEN with the feature's upgrade key when the workspace's plan lacks it. */
  requireFeature(workspaceId: string, feature: Feature, what: string): Promise<void>;
  /**
   * Throws INVALID_OPERATION naming the limit, with its upgrade key, when `current + adding`
   * would pass it. Count `current` under a lock when two requests could add at once.
   */
  requireRoom(workspaceId: string, name: LimitName, current: number, adding: number, what: string): Promise<void>;
  /** Forget a workspace's cached answer (every workspace's without an id): its subscription changed. */
  invalidate(workspaceId?: string): void;
  /** Billing installs its source at start; before that, and without billing, the default answers. */
  answerWith(source: EntitlementSource): void;
}

/** The invalidation topic billing publishes a workspace id on when its subscription changes. */
export const ENTITLEMENTS_TOPIC = 'entitlements';

/** How long an answer is kept: a changed subscription is also announced to every process at once. */
const CACHE_MS = 60_000;

export function createEntitlements(defaultSource: EntitlementSource, now: () => number = Date.now): Entitlements {
  let source = defaultSource;
  const cache = new Map<string, { at: number; set: Promise<EntitlementSet> }>();
  const of = (workspaceId: string): Promise<EntitlementSet> => {
    const hit = cache.get(workspaceId);
    if (hit && now() - hit.at < CACHE_MS) return hit.set;
    const set = source.entitlements(workspaceId);
    cache.set(workspaceId, { at: now(), set });
    // A failed read is not kept: the next request asks again.
    set.catch(() => cache.delete(workspaceId));
    return set;
  };
  return {
    of,
    can: async (workspaceId, feature) => (await of(workspaceId)).features[feature],
    limit: async (workspaceId, name) => (await of(workspaceId)).limits[name],
    async requireFeature(workspaceId, feature, what) {
      const set = await of(workspaceId);
      if (set.features[feature]) return;
      throw new AppError(
        'FORBIDDEN',
        `${what} is not part of this workspace's ${set.plan} plan. Change plan to use it.`,
        {
          upgradeKey: FEATURES[feature],
        },
      );
    },
    async requireRoom(workspaceId, name, current, adding, what) {
      const set = await of(workspaceId);
      const max = set.limits[name];
      if (max === null || current + adding <= max) return;
      throw new AppError(
        'INVALID_OPERATION',
        `This workspace can have at most ${max} ${what}. Remove one, or change plan for more.`,
        { field: name, upgradeKey: LIMITS[name] },
      );
    },
    invalidate(workspaceId) {
      if (workspaceId) cache.delete(workspaceId);
      else cache.clear();
    },
    answerWith(next) {
      source = next;
      cache.clear();
    },
  };
}
