import type { Knex } from 'knex';
import type { Config } from '../config.ts';
import type { WorkspaceRef } from '../kernel/request-context.ts';

/** Sign-in options and branding of the workspace a request addresses (002 §3 team environment). */
export interface TeamEnvironment {
  teamId: string | null;
  name: string | null;
  primaryColor: string | null;
  logoUrl: string | null;
  passwordLogin: boolean;
  googleLogin: boolean;
  microsoftLogin: boolean;
  ssoLogin: boolean;
  oidcIssuer: string | null;
}

/** The root-domain app gets the same sign-in options with no workspace branding. */
export async function teamEnvironment(
  app: Knex,
  config: Config,
  workspace: WorkspaceRef | null,
): Promise<TeamEnvironment> {
  // The workspaces table is the tenant registry (no row-level security): branding is public.
  const row = workspace
    ? await app('workspaces')
        .where({ id: workspace.id })
        .first<{ name: string; primary_color: string | null; logo_url: string | null } | undefined>(
          'name',
          'primary_color',
          'logo_url',
        )
    : undefined;
  const sso = Boolean(config.oidc.issuer && config.oidc.clientId);
  return {
    teamId: workspace?.id ?? null,
    name: row?.name ?? workspace?.name ?? null,
    primaryColor: row?.primary_color ?? null,
    logoUrl: row?.logo_url ?? null,
    passwordLogin: true,
    googleLogin: Boolean(config.google.clientId),
    microsoftLogin: Boolean(config.microsoft.clientId),
    ssoLogin: sso,
    oidcIssuer: sso ? config.oidc.issuer! : null,
  };
}
