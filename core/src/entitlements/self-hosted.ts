import type { Config } from '../config.ts';
import { type EntitlementSet, featureNames, type LimitName, limitNames } from './catalog.ts';
import type { EntitlementSource } from './service.ts';

/**
 * The answer without billing: the "Self-hosted" plan, every feature on and no limit but those the
 * operator set (`MAXIMUM_*` environment variables become this plan's limits).
 */
export function selfHostedPlan(config: Config): EntitlementSet {
  const limits = Object.fromEntries(limitNames.map((n) => [n, null])) as Record<LimitName, number | null>;
  limits.maximumExtensions = config.plugins.maximumExtensions;
  limits.maximumChannels = config.channels.maximumChannels;
  limits.maximumChannelsDataPoints = config.channels.maximumChannelsDataPoints;
  return {
    plan: 'Self-hosted',
    features: Object.fromEntries(featureNames.map((f) => [f, true])) as EntitlementSet['features'],
    limits,
  };
}

export const selfHostedSource = (config: Config): EntitlementSource => {
  const plan = selfHostedPlan(config);
  return { entitlements: async () => plan };
};
