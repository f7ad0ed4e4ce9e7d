import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error.ts';
import type { EntitlementSet } from './catalog.ts';
import { createEntitlements, type EntitlementSource } from './service.ts';
import { selfHostedPlan } from './self-hosted.ts';
import type { Config } from '../config.ts';

const config = {
  plugins: { maximumExtensions: 3 },
  channels: { maximumChannels: null, maximumChannelsDataPoints: 1000 },
} as unknown as Config;

function countingSource(set: EntitlementSet): EntitlementSource & { reads: number } {
  const source = {
    reads: 0,
    entitlements: async () => {
      source.reads += 1;
      return set;
    },
  };
  return source;
}

const caught = async (p: Promise<unknown>): Promise<AppError> => {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an error');
};

describe('entitlements', () => {
  it('answers the Self-hosted plan without billing: every feature, the operator’s limits only', async () => {
    const e = createEntitlements(countingSource(selfHostedPlan(config)));
    expect(await e.can('w1', 'scimProvisioning')).toBe(true);
    expect(await e.limit('w1', 'maximumExtensions')).toBe(3);
    expect(await e.limit('w1', 'maximumChannels')).toBeNull();
    expect(await e.limit('w1', 'maximumProjects')).toBeNull();
    expect((await e.of('w1')).plan).toBe('Self-hosted');
  });

  it('refuses a limit passed with its name and upgrade key, and lets one up to it through', async () => {
    const e = createEntitlements(countingSource(selfHostedPlan(config)));
    await e.requireRoom('w1', 'maximumExtensions', 2, 1, 'extensions installed');
    const err = await caught(e.requireRoom('w1', 'maximumExtensions', 3, 1, 'extensions installed'));
    expect(err.errorCode).toBe('INVALID_OPERATION');
    expect(err.field).toBe('maximumExtensions');
    expect(err.upgradeKey).toBe('increase-number-of-extensions');
    expect(err.message).toBe(
      'This workspace can have at most 3 extensions installed. Remove one, or change plan for more.',
    );
    await e.requireRoom('w1', 'maximumProjects', 10_000, 1, 'projects');
  });

  it('refuses a feature the plan lacks with its upgrade key', async () => {
    const plan = selfHostedPlan(config);
    const free: EntitlementSet = { ...plan, plan: 'Free', features: { ...plan.features, scimProvisioning: false } };
    const e = createEntitlements(countingSource(free));
    const err = await caught(e.requireFeature('w1', 'scimProvisioning', 'SCIM provisioning'));
    expect(err.errorCode).toBe('FORBIDDEN');
    expect(err.upgradeKey).toBe('scim-provisioning');
    expect(err.message).toContain("not part of this workspace's Free plan");
    await e.requireFeature('w1', 'askSearch', 'Ask');
  });

  it('keeps an answer per workspace until it is invalidated or a minute has passed', async () => {
    let now = 0;
    const source = countingSource(selfHostedPlan(config));
    const e = createEntitlements(source, () => now);
    await e.can('w1', 'export');
    await e.can('w1', 'translation');
    await e.can('w2', 'export');
    expect(source.reads).toBe(2);
    e.invalidate('w1');
    await e.can('w1', 'export');
    await e.can('w2', 'export');
    expect(source.reads).toBe(3);
    now = 60_001;
    await e.can('w2', 'export');
    expect(source.reads).toBe(4);
  });

  it('answers from the source billing installs, forgetting what the default said', async () => {
    const e = createEntitlements(countingSource(selfHostedPlan(config)));
    expect(await e.limit('w1', 'maximumProjects')).toBeNull();
    const plan = selfHostedPlan(config);
    e.answerWith(countingSource({ ...plan, plan: 'Free', limits: { ...plan.limits, maximumProjects: 3 } }));
    expect(await e.limit('w1', 'maximumProjects')).toBe(3);
  });

  it('does not keep a failed read', async () => {
    let fail = true;
    const e = createEntitlements({
      entitlements: async () => {
        if (fail) throw new Error('database away');
        return selfHostedPlan(config);
      },
    });
    await expect(e.can('w1', 'export')).rejects.toThrow('database away');
    fail = false;
    expect(await e.can('w1', 'export')).toBe(true);
  });
});
