import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AvailableTeam } from '../api/operations.ts';
import { destinationAfterSignIn, safeNext } from './after-sign-in.ts';

const team = (id: string, type: AvailableTeam['type'] = 'MEMBER'): AvailableTeam => ({
  id,
  type,
  subdomain: id,
  name: id,
  logoUrl: null,
  primaryColor: null,
  inviteId: null,
  invitedBy: null,
});

// No browser storage in these tests: no invite is pending.
vi.mock('../session/workspace-choice.ts', () => ({ pendingInvite: () => null }));
afterEach(() => vi.clearAllMocks());

describe('where sign-in leads', () => {
  it('enters the one workspace the person belongs to', () => {
    expect(destinationAfterSignIn({ teamId: 'a', availableTeams: [team('a')] }, null)).toBe('/team-redirect/a/home');
  });

  it('sends people without a workspace to create one, and people with several to choose', () => {
    expect(destinationAfterSignIn({ teamId: null, availableTeams: [] }, null)).toBe('/auth/create-workspace');
    expect(destinationAfterSignIn({ teamId: null, availableTeams: [team('a'), team('b')] }, null)).toBe(
      '/auth/workspaces',
    );
    expect(destinationAfterSignIn({ teamId: 'x', availableTeams: [team('x', 'INVITE')] }, null)).toBe(
      '/auth/workspaces',
    );
  });

  it('goes back to the wanted page, inside a workspace', () => {
    expect(destinationAfterSignIn({ teamId: 'a', availableTeams: [team('a')] }, '/settings/users')).toBe(
      '/team-redirect/a/settings/users',
    );
    expect(destinationAfterSignIn({ teamId: 'a', availableTeams: [team('a'), team('b')] }, '/home', 'b')).toBe('/home');
    expect(destinationAfterSignIn({ teamId: null, availableTeams: [] }, '/auth/accept-invite?token=t')).toBe(
      '/auth/accept-invite?token=t',
    );
  });

  it('never leaves the app for a `next` on another site', () => {
    expect(safeNext('https://evil.example/')).toBeNull();
    expect(safeNext('//evil.example/')).toBeNull();
    expect(safeNext('/\\evil.example')).toBeNull();
    expect(safeNext('/home?x=1')).toBe('/home?x=1');
  });
});
