export { type EntitlementSet, type Feature, FEATURES, type LimitName, LIMITS } from './catalog.ts';
export { type Entitlements, type EntitlementSource, createEntitlements, ENTITLEMENTS_TOPIC } from './service.ts';
export { selfHostedPlan, selfHostedSource } from './self-hosted.ts';
