import { isIP } from 'node:net';
import type { Config } from '../config.ts';

/**
 * Whether workspaces can live on subdomains of PUBLIC_URL. A bare `localhost` or an IP address has
 * none that work without DNS set-up, so workspace links go through /team-redirect instead, which
 * the web app handles by addressing that workspace itself.
 */
export function subdomainsSupported(publicUrl: URL): boolean {
  const host = publicUrl.hostname.replace(/^\[|\]$/g, '');
  return host !== 'localhost' && isIP(host) === 0;
}

/** The workspace app at `path` (000 §2 routes), e.g. https://acme.fieldbook.example/home. */
export function workspaceAppUrl(
  config: Pick<Config, 'publicUrl' | 'rootHost'>,
  workspace: { id: string; subdomain: string },
  path = '',
): string {
  const rest = path.replace(/^\/+/, '');
  if (subdomainsSupported(config.publicUrl))
    return `${config.publicUrl.protocol}//${workspace.subdomain}.${config.rootHost}/${rest}`;
  return new URL(`/team-redirect/${workspace.id}/${rest}`, config.publicUrl).toString();
}
