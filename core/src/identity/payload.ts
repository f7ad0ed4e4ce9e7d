import { httpOf, type RequestContext } from '../kernel/request-context.ts';
import { availableTeamsFor, type AvailableTeam } from './available-teams.ts';
import type { IdentityDeps } from './deps.ts';
import { setRefreshCookie, type AuthTokens } from './sessions.ts';
import type { UserRow } from './users.ts';
import { themeModeOf, type ThemeMode } from './theme.ts';

/** The User type of the API. */
export interface UserView {
  id: string;
  email: string;
  name: string;
  emailConfirmed: boolean;
  hasPassword: boolean;
  /** Set for the person's own User only: another person's theme is theirs. */
  themeMode?: ThemeMode;
  createdAt: Date;
}

export const toUserView = (row: UserRow): UserView => ({
  id: row.id,
  email: row.email,
  name: row.name,
  emailConfirmed: row.email_confirmed_at !== null,
  hasPassword: row.password_hash !== null,
  themeMode: themeModeOf(row.preferences),
  createdAt: row.created_at,
});

export interface AuthPayload extends AuthTokens {
  user: UserView;
  availableTeams: AvailableTeam[];
  teamId: string | null;
}

/** Opens a session for a person and answers what the sign-in screens need next. */
export async function signedIn(deps: IdentityDeps, ctx: RequestContext, user: UserRow): Promise<AuthPayload> {
  const tokens = await deps.sessions.open(user, httpOf(ctx).get('user-agent') || undefined);
  return payloadFor(deps, ctx, user, tokens);
}

/** Sets the refresh cookie and gathers the workspaces the person may enter. */
export async function payloadFor(
  deps: IdentityDeps,
  ctx: RequestContext,
  user: UserRow,
  tokens: AuthTokens,
): Promise<AuthPayload> {
  setRefreshCookie(httpOf(ctx), tokens, deps.config.refreshTokenTtlSeconds);
  const availableTeams = await availableTeamsFor(deps.app, { userId: user.id, email: user.email });
  return { ...tokens, user: toUserView(user), availableTeams, teamId: leadingTeam(availableTeams, ctx.workspace?.id) };
}

/** The workspace the sign-in leads to: the one addressed if the person may enter it, or the only one. */
function leadingTeam(teams: readonly AvailableTeam[], addressed: string | undefined): string | null {
  if (addressed && teams.some((t) => t.id === addressed && t.type === 'MEMBER')) return addressed;
  return teams.length === 1 ? teams[0]!.id : null;
}
