import { describe, expect, it } from 'vitest';
import { kindOf, NOTIFICATION_KINDS, notificationKinds, registerNotificationKinds } from './kinds.ts';

describe('notification kinds', () => {
  it('lists a module’s kinds with core’s, in their group’s place, and finds them by kind', () => {
    registerNotificationKinds('media', [
      { kind: 'transcript_ready', label: 'A transcript is ready', group: 'Work', email: 'immediate' },
    ]);
    registerNotificationKinds('billing', [
      { kind: 'billing_invoice_upcoming', label: 'An invoice is coming', group: 'Billing', email: 'immediate' },
    ]);
    const kinds = notificationKinds().map((k) => k.kind);
    expect(kinds).toHaveLength(NOTIFICATION_KINDS.length + 2);
    expect(kinds.indexOf('transcript_ready')).toBeGreaterThan(kinds.indexOf('automation_message'));
    expect(kinds.indexOf('transcript_ready')).toBeLessThan(kinds.indexOf('billing_invoice_upcoming'));
    expect(kinds.indexOf('billing_invoice_upcoming')).toBeLessThan(kinds.indexOf('account_locked'));
    expect(kindOf('transcript_ready')?.label).toBe('A transcript is ready');
  });

  it('lets a module declare its kinds again (a second Fieldbook in the process) but not take another’s', () => {
    const kind = { kind: 'reel_export_ready', label: 'A reel is ready', group: 'Work', email: 'none' } as const;
    registerNotificationKinds('media', [kind]);
    registerNotificationKinds('media', [kind]);
    expect(() => registerNotificationKinds('recruit', [kind])).toThrow(/already "media"'s/);
    expect(() =>
      registerNotificationKinds('recruit', [{ kind: 'mention', label: 'x', group: 'You', email: 'none' }]),
    ).toThrow(/already "core"'s/);
  });
});
